// route-remove: routes made for it (x<i>.f<n>.<tag>.routes.bench.local: n its place in the
// scenario's list, tag the measurement's), each answering first, are deleted while the
// load runs on the loaded route; it deletes only routes it made, never another fault's.
// Each removal's propagation time runs from the API server accepting the delete to the
// route's first 404; an answer other than 200 or 404 on the way is an error of that
// removal. That the other routes do not notice is the load's own errors and latency,
// gated as ever.
import { kubeCommand as command, runEdits, spanProblems } from './route-edits.js';

export { defaults, editsRoutes } from './route-edits.js';

// The field that counts its edits (the schema's, checked by tools/test/unit/adding-things.test.js).
export const countField = 'routes';

export function problems(f, scenario) {
  return spanProblems(f, scenario, countField);
}

export function kubeCommand(f, kubectl) {
  return command(f, kubectl, ['delete', `<route-remove-f<n>-<0..${f.routes - 1}>-<tag>, each after it answered>`]);
}

export function run(f, ctx) {
  return runEdits(f, 'remove', countField, ctx);
}
