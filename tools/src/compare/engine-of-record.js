// The engine of record: two runs compare only when one load engine measured both (k6 and
// Vegeta send alike but are not one instrument, docs/engines.md). Ingest names the engine of
// every output it reads in the result's workload record (ingest/formats.js); a run whose
// record names none — ingested before results named it, or edited — is not compared as if
// its engine were known, as a baseline, a head, a pair's side or one repetition among
// several: its cell is inconclusive, naming the run. Before, a run without a record was
// skipped by the workload check (validity.js compared every run with the first that had
// one), so a k6 output ingested without its meta passed against Vegeta's baselines.
// That every run names the same engine is the workload check's (`load tool k6 → vegeta`).
import { engineOf, workloadOf } from '../result/workload.js';
import { listed, runName } from './whole-evidence.js';

/** [{ fatal, message }] (comparabilityProblems' shape): the runs of a cell that name no engine. */
export function engineProblems(base, head) {
  const unknown = [];
  for (const [side, reps] of [
    ['base', base],
    ['head', head],
  ])
    reps.forEach((r, i) => {
      if (!engineOf(workloadOf(r))) unknown.push(runName(r, side, i));
    });
  if (!unknown.length) return [];
  const one = unknown.length === 1;
  return [
    {
      fatal: true,
      message: `no load engine named by ${listed(unknown)}: ${one ? 'its' : 'their'} workload record names neither k6 nor another engine (ingested without one, or before results named it), and a run of an unknown engine is not compared as if its engine were known — re-ingest ${one ? 'it' : 'them'} (tailgate ingest --format <engine>) or re-run the cell`,
    },
  ];
}
