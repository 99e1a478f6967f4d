// This machine's own baselines, for `make bench` on any machine (run --own-baselines <dir>).
// Committed baselines are kept for one machine class (docs/baselines.md), and a run on
// another CPU of that class compared with them is inconclusive ("measured on different
// machines"): a newcomer's first `make bench` ended exit 3. So, per cell: a committed
// baseline this run can be compared with (same machine, same workload) wins; else this
// machine's own under <dir>/<fingerprint>/, recorded by an earlier run; else this run's
// results become them — recorded, said, and not judged against themselves. The next run
// is compared with them, and a regression still exits 1.
import { buildBaseline } from './baseline-doc.js';
import { baselinePath, readBaseline } from './baselines.js';
import { comparabilityProblems } from './validity.js';
import { checkName, shown, under } from '../names.js';
import { writeAllAtomic } from '../result/write.js';

// Where a cell's own baselines live: one folder per machine fingerprint, so a copied
// folder or a changed machine never compares numbers of different hardware.
function ownDir(dir, cell) {
  const print = cell.reps[0]?.meta?.machine?.fingerprint;
  return under(dir, checkName(print, `${cell.key}: meta.machine.fingerprint`));
}

// A baseline this cell's results can be judged against: nothing would make it
// inconclusive before any number is read (cell, profile, workload, machine).
const fits = (baseline, cell) =>
  Boolean(baseline) && comparabilityProblems(baseline.reps, cell.reps, { mode: 'baseline' }).length === 0;

/**
 * Which baseline each measured cell is judged against. cells: collectRun's (cells with
 * harness errors or no repetitions are left to the gate, which names them) ->
 * Map key -> { source: 'committed' | 'own', baseline } | { source: 'record', why, file }.
 */
export function chooseBaselines({ cells, baselinesDir, ownBaselinesDir }) {
  const out = new Map();
  for (const c of cells) {
    if (c.errors.length || !c.reps.length) continue;
    const committed = readBaseline({ dir: baselinesDir, profile: c.profile, cellKey: c.key });
    if (fits(committed, c)) {
      out.set(c.key, { source: 'committed', baseline: committed });
      continue;
    }
    const dir = ownDir(ownBaselinesDir, c);
    const own = readBaseline({ dir, profile: c.profile, cellKey: c.key });
    if (fits(own, c)) out.set(c.key, { source: 'own', baseline: own });
    else
      out.set(c.key, {
        source: 'record',
        file: baselinePath(dir, c.profile, c.key),
        why: own ? 'the workload changed since it was recorded' : committed ? notHere(committed, c) : null,
      });
  }
  return out;
}

// Why a committed baseline does not apply here, in a few words.
function notHere(committed, cell) {
  const [problem] = comparabilityProblems(committed.reps, cell.reps, { mode: 'baseline' });
  const theirs = committed.reps[0]?.meta?.machine?.cpuModel;
  const ours = cell.reps[0]?.meta?.machine?.cpuModel;
  if (theirs && ours && theirs !== ours)
    return `committed ones were measured on ${shown(theirs, 60)}, this is ${shown(ours, 60)}`;
  return `committed ones do not compare with it (${shown(problem?.message ?? 'not comparable', 160)})`;
}

/**
 * Records this run's results as this machine's baselines for the cells `choices` marks
 * "record" (all or nothing), replacing an own baseline of an older workload. Returns the
 * lines that say what was recorded and why.
 */
export function recordOwnBaselines({ cells, choices, ownBaselinesDir }) {
  const todo = cells.filter((c) => choices.get(c.key)?.source === 'record');
  if (!todo.length) return [];
  writeAllAtomic(
    todo.map((c) => ({
      file: choices.get(c.key).file,
      root: ownBaselinesDir,
      text: `${JSON.stringify(buildBaseline({ cellKey: c.key, profile: c.profile, reps: c.reps }), null, 1)}\n`,
    })),
  );
  const reasons = [...new Set(todo.map((c) => choices.get(c.key).why).filter(Boolean))];
  const dropped = todo.filter((c) => c.reps.some((r) => r.load?.droppedIterations > 0)).map((c) => c.key);
  return [
    `No baseline measured on this machine for ${todo.length} cell(s)${reasons.length ? ` (${reasons.join('; ')})` : ''}: this run's results are now this machine's own baselines, not judged against themselves:`,
    ...todo.map((c) => `  ${c.key} → ${choices.get(c.key).file}`),
    `The next run is compared with them (a regression exits 1). To record them again: delete ${ownBaselinesDir}/, or \`tailgate baseline update --results <run> --baselines ${ownBaselinesDir}/<fingerprint> --force\`.`,
    ...(dropped.length
      ? [
          `  warning: ${dropped.join(', ')}: dropped iterations; the load was not fully delivered when they were recorded`,
        ]
      : []),
  ];
}
