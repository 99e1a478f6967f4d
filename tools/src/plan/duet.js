// A PR's duet: the controller as the PR's base commit configures it (side a) and as its
// head does (side b), two releases in one cluster. What makes it possible is that the
// two sides differ only in what a duet can hold side by side — values, overlays, chart
// version; the topology, the matrix and the controllers it has must be equal, or the gate
// falls back to interleaved pairs and says why in one line. A scenario the PR changes is
// no reason to fall back: one k6 drives both sides, so both run the head's workload (like
// with like), and the change is carried to the comment (plan.workloadChange).
import { isDeepStrictEqual } from 'node:util';
import { InputError } from '../errors.js';
import { catalogEntry } from '../registry/catalog.js';
import { workloadDiff } from '../result/workload.js';

/** Why this matrix cannot run as a duet of base and head, or null. */
export function duetRefusal(baseCfg, headCfg, matrixName) {
  const [bm, hm] = [baseCfg, headCfg].map((c) =>
    Object.hasOwn(c.matrices, matrixName) ? c.matrices[matrixName] : null,
  );
  if (!bm) return `the base commit has no matrix "${matrixName}"`;
  if (hm.target !== 'kind' || bm.target !== 'kind') return 'a duet runs on kind only';
  for (const field of ['controllers', 'tunings', 'scenarios', 'cluster'])
    if (!isDeepStrictEqual(bm[field], hm[field])) return `the matrix's ${field} change in this PR`;
  for (const c of hm.controllers) {
    const [b, h] = [baseCfg.controllers[c], headCfg.controllers[c]];
    if (!b || b.type !== h.type) return `controller "${c}" is new in this PR`;
    if ((b.routing ?? 'ingress') !== (h.routing ?? 'ingress')) return `controller "${c}" changes its routing`;
    if (!catalogEntry(c, h).duet)
      return `controller "${c}" cannot run two releases in one cluster yet (no duet section in its catalog entry)`;
  }
  return null;
}

/**
 * Every cell of `plan` (made from the head's config) becomes a duet: its own controller
 * and tuning as the base commit defines them on side a, as the head defines them on side b.
 */
export function applyDuetBase(plan, baseCfg, headCfg) {
  const why = duetRefusal(baseCfg, headCfg, plan.matrixName);
  if (why) throw new InputError(`--duet-base: ${why}; run the base and head as interleaved pairs instead`);
  plan.ab = { controller: '(each cell)', tuning: '(as the PR changes it)' };
  // A PR's duet: one whose sides would not share the node alike runs one side at a time
  // (targets/kube/one-at-a-time.js); a duet asked for by name (--ab-head) stays one.
  plan.prDuet = true;
  // The PR is judged by its base's rules (compare/base-policy.js): the runner's interim
  // looks decide by them too, or a PR that loosens its own threshold would stop a cell the
  // gate of record then finds undecided (compare/sequential-stop.js).
  plan.gateOfRecord = baseCfg.matrices[plan.matrixName].gate ?? baseCfg.gate;
  const changes = workloadChanges(baseCfg, headCfg, [...new Set(plan.cells.map((c) => c.scenarioName))]);
  if (changes.length) plan.workloadChange = changes;
  for (const cell of plan.cells) {
    cell.concurrent = {
      name: cell.controllerName,
      controller: cell.controller,
      tuningName: cell.tuningName,
      tuning: cell.tuning,
    };
    cell.controller = baseCfg.controllers[cell.controllerName];
    cell.tuning = baseCfg.tunings[cell.tuningName] ?? cell.tuning;
  }
  return plan;
}

/** What the head changes in the scenarios the plan runs: 'scenario "s": field a → b'. */
export function workloadChanges(baseCfg, headCfg, scenarios) {
  const out = [];
  for (const s of scenarios) {
    const [b, h] = [baseCfg.scenarios[s], headCfg.scenarios[s]];
    if (!b) {
      out.push(`scenario "${s}" is new in this PR`);
      continue;
    }
    for (const d of workloadDiff(b, h)) out.push(`scenario "${s}": ${d}`);
  }
  return out;
}
