// Every planned cell accounted for, in every mode: the gate judges the plan of record
// (plan/of-record.js), not whatever results happened to arrive. A planned cell with no
// results is inconclusive and named — a bench job that died, timed out, lost its runner
// or failed to upload must not pass by absence; results nobody planned are not judged and
// are named; base cells the PR removed are named.
import { counts, exitCodeFor, overallVerdict } from './overall.js';

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
  const overall = overallVerdict(cells);
  const confirm = (doc.confirm ?? []).filter((c) => planned.has(c.cell));
  return {
    ...doc,
    overall,
    exitCode: exitCodeFor(overall),
    counts: counts(cells),
    plannedCells: planned.size,
    ...(unplanned.length ? { unplanned } : {}),
    ...(plan.removed?.length ? { removed: plan.removed } : {}),
    pending: doc.round === 'first' && confirm.length > 0,
    confirm,
    cells,
  };
}
