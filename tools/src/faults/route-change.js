// route-change: the loaded route itself is edited while the load runs on it — its backend
// switched to a second Service over the same pods (backend-alt, whose answers say so),
// then back, `changes` times. The load's own errors and latency during the changes are
// the cell's usual ones; each change's propagation time runs from the API server
// accepting the patch to the first answer from the new Service, and any answer other
// than a 200 on the way is an error of that change. The changes of several route-change
// faults take turns, and each starts once every side shows where it starts from (a side
// that never followed the last one would "follow" a switch back at once).
import { kubeCommand as command, runEdits, spanProblems } from './route-edits.js';

export { defaults, editsRoutes } from './route-edits.js';

// The field that counts its edits (the schema's, checked by tools/test/unit/adding-things.test.js).
export const countField = 'changes';

// Switches to the backend's second Service: the backend chart installs it where a cell has
// this fault (targets/kube/steps/backend.js altService).
export const usesBackendAlt = true;

export function problems(f, scenario) {
  return spanProblems(f, scenario, countField);
}

export function kubeCommand(f, kubectl) {
  return command(f, kubectl, [
    'patch',
    '<the loaded Ingress or HTTPRoute>',
    '--type=json',
    `<backend: backend ↔ backend-alt, ${f.changes ?? 1} time(s)>`,
  ]);
}

export function run(f, ctx) {
  return runEdits(f, 'change', countField, ctx);
}
