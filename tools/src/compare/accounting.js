// Every planned cell accounted for, in every mode: the gate judges the plan of record
// (plan/of-record.js), not whatever results happened to arrive. A planned cell with no
// results is inconclusive and named — a bench job that died, timed out, lost its runner
// or failed to upload must not pass by absence; results nobody planned are not judged and
// are named; base cells the PR removed are named.
import { verdictDoc } from './run-compare.js';

export const NO_RESULTS =
  "no results from its bench job: the cell was planned but nothing of it arrived (the job failed, timed out or lost its runner before uploading) — see that job's log";

/** doc: a verdict; plan: { cells: [{ key }], removed: [{ key, why }] } -> the same doc, accounted. */
export function accountFor(doc, plan) {
  const planned = new Set(plan.cells.map((c) => c.key));
  const seen = new Set(doc.cells.map((c) => c.cell));
  const unplanned = [...seen].filter((k) => !planned.has(k));
  const missing = [...planned]
    .filter((k) => !seen.has(k))
    .map((k) => ({ cell: k, verdict: 'inconclusive', metrics: [], reasons: [NO_RESULTS] }));
  const cells = [...doc.cells.filter((c) => planned.has(c.cell)), ...missing];
  // What verdictDoc derives from the cells (overall, exit code, counts, pending) it derives
  // again for the accounted ones; everything else the doc carries stays as it was.
  const { mode, cells: _, overall: _o, exitCode: _e, counts: _c, pending: _p, ...rest } = doc;
  return verdictDoc(mode, cells, {
    ...rest,
    plannedCells: planned.size,
    ...(unplanned.length ? { unplanned } : {}),
    ...(plan.removed?.length ? { removed: plan.removed } : {}),
    confirm: (doc.confirm ?? []).filter((c) => planned.has(c.cell)),
  });
}
