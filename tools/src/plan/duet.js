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
import { scenarioLoad, workloadDiff } from '../result/workload.js';
import { scenarioAsRun } from '../config/defaults.js';

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
  const scenarios = [...new Set(plan.cells.map((c) => c.scenarioName))];
  const changes = workloadChanges(baseCfg, headCfg, scenarios, plan.matrixName);
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

/**
 * What the head changes in the scenarios the plan runs: 'scenario "s": field a → b', on
 * effective values — each scenario as its side's matrix runs it (the matrix's duration and
 * rate over it), the engine the file gives it or auto, a field one side lacks compared as
 * the default it relied on. One engine drives both sides of the duet: the head's, so a
 * head that names another than its base's is a workload change like any other.
 */
export function workloadChanges(baseCfg, headCfg, scenarios, matrixName) {
  const out = [];
  for (const s of scenarios) {
    const [b, h] = [asRun(baseCfg, matrixName, s), asRun(headCfg, matrixName, s)];
    if (!b) {
      out.push(`scenario "${s}" is new in this PR`);
      continue;
    }
    const [eb, eh] = [b.engine ?? 'auto', h.engine ?? 'auto'];
    if (eb !== eh) out.push(`scenario "${s}": engine ${eb} → ${eh}`);
    for (const d of workloadDiff(scenarioLoad(b), scenarioLoad(h), { unset: true })) out.push(`scenario "${s}": ${d}`);
  }
  return out;
}

// A scenario as the side's matrix runs it (config/defaults.js), or null where it has none.
function asRun(cfg, matrixName, s) {
  if (!Object.hasOwn(cfg.scenarios, s)) return null;
  const m = Object.hasOwn(cfg.matrices ?? {}, matrixName) ? cfg.matrices[matrixName] : null;
  return m ? scenarioAsRun(cfg, m, s) : cfg.scenarios[s];
}
