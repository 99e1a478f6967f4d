// The run stage's look at a duet cell's pairs before an optional repetition (run/sequence.js):
// the ingested result files read as the gate reads them, judged by compare/sequential.js
// with the matrix's gate rules. Here because the run stage imports no later stage.
import { familyBound, interimLook } from '../compare/sequential.js';
import { readJsonFile, toReps } from '../result/load.js';

/** plan -> ({ base: [result files], head: [result files] }) -> interimLook's answer. */
export function interimStage(plan) {
  // A PR's duet looks by its base's rules, as the gate of record judges (plan/duet.js).
  const gate = plan.gateOfRecord ?? plan.matrix.gate ?? plan.gate;
  const family = familyBound(plan.cells, gate);
  const reps = (files) => files.flatMap((f) => toReps(readJsonFile(f), f).reps);
  return ({ base, head }) => interimLook({ base: reps(base), head: reps(head) }, gate, { family });
}
