// The duet or one side at a time, decided for each cell before any load: where the two
// releases would not share the node alike (duet-fairness.js, on the manifests the values
// check rendered for each), the cell's two releases stay installed side by side but are
// loaded one at a time — the alternate mode — and that is its verdict of record from the
// first pair, its sequential budget (maxRepetitions) applied as to a duet's pairs
// (run/sequence.js). A PR's duet only (--duet-base, plan/duet.js): a duet asked for by
// name (a matrix's head, --ab-head: make perf's CPU canaries) is measured as asked, and
// the log says it is unfair. The cell carries why (cell.oneAtATime) for the log, the run's
// duet-change.json and the comment's first lines.
import { ROUTE_FAULTS } from '../../faults/schedule.js';
import { differencesText, duetFairness, podTemplates, whyLine } from './duet-fairness.js';

/** plan: the run's (its cells are changed in place); steps: the driver's, after preflight. */
export function oneAtATime(plan, steps, log = () => {}) {
  const checks = steps.filter((s) => s.kind === 'check' && typeof s.rendered === 'string');
  const rendered = (release, tuning) => {
    const s = checks.find((c) => c.release === release && c.tuning === tuning);
    return s ? podTemplates(s.rendered, { release: s.release, namespace: s.namespace }) : null;
  };
  const judged = new Map();
  for (const cell of plan.cells) {
    // Two controllers (a migration's --duet) differ in everything, by the user's choice.
    if (!cell.concurrent || cell.alternate || cell.concurrent.name !== cell.controllerName) continue;
    const sides = `${cell.controllerName}:${cell.tuningName} ${cell.concurrent.name}:${cell.concurrent.tuningName}`;
    if (!judged.has(sides)) {
      const v = judge(
        rendered(cell.controllerName, cell.tuningName),
        rendered(`${cell.concurrent.name}-b`, cell.concurrent.tuningName),
      );
      judged.set(sides, v);
      if (!v) log(`  ${sides}: neither side's rendered manifests hold a pod to compare: judged as a duet`);
      else {
        // The log names every difference, unfair or not (duet-fairness.js).
        if (v.unfair.length) log(`  ${sides}: the sides' pods differ — ${differencesText(v.unfair)}`);
        if (v.fair.length) log(`  ${sides}: the head changes ${differencesText(v.fair)} — per pod, shared fairly`);
      }
    }
    const why = judged.get(sides)?.why;
    if (!why) continue;
    if (!plan.prDuet) {
      if (cell.repetition === 1)
        log(
          `  ${cell.key}: ${why}; a duet asked for by name stays one (a PR's duet would run one side at a time; --alternate does)`,
        );
      continue;
    }
    if (routed(cell)) {
      log(`  ${cell.key}: ${why}; it edits routes under load, which one side at a time cannot: stays a duet`);
      continue;
    }
    cell.alternate = true;
    cell.oneAtATime = why;
    if (cell.repetition === 1) log(`  ${cell.key}: one side at a time — ${why}`);
  }
}

const routed = (cell) => cell.scenario.routes || cell.scenario.faults.some((f) => ROUTE_FAULTS.includes(f.type));

// Two sides' pods (podTemplates, null: no rendered manifests for that release) -> the
// fairness verdict, or null where neither side has anything to compare (no check rendered
// either, or neither renders a pod: a data plane an operator makes). One side not read is a
// difference that cannot be read: unfair.
function judge(base, head) {
  if (!base && !head) return null;
  if (!base || !head) {
    const what = `the ${base ? 'head' : 'base'}'s rendered manifests are not at hand`;
    const d = { class: 'unread', what, base: base ? 'read' : 'not read', head: head ? 'read' : 'not read' };
    return { unfair: [d], fair: [], why: whyLine([d]) };
  }
  if (!base.size && !head.size && !base.unreadable.length && !head.unreadable.length) return null;
  return duetFairness(base, head);
}
