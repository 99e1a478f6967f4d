// route-add: new routes applied while the scenario's load runs on the existing one. Each
// new route is probed until it answers 200; the time from the API server accepting the
// object to that first 200 is its propagation time. Anything other than 404 (not routed
// yet) → 200 on the way is an error of that route. In a duet both sides get the same
// edit at the same moment (one apply per side, issued together) and are probed alike.
// Names and hosts carry the fault's place and the measurement's tag: every route it adds
// is new, whatever other route-add faults the scenario has (targets/kube/routes.js).
import { kubeCommand as command, runEdits, spanProblems } from './route-edits.js';

export { defaults, editsRoutes } from './route-edits.js';

// The field that counts its edits (the schema's, checked by tools/test/unit/adding-things.test.js).
export const countField = 'routes';

export function problems(f, scenario) {
  return spanProblems(f, scenario, countField);
}

export function kubeCommand(f, kubectl) {
  return command(f, kubectl, [
    'apply',
    '-f',
    `<route-add-f<n>-<0..${f.routes - 1}>-<tag>: an Ingress or HTTPRoute for r<i>.f<n>.<tag>.routes.bench.local, n this fault's place in the list, tag the measurement's>`,
  ]);
}

export function run(f, ctx) {
  return runEdits(f, 'add', countField, ctx);
}
