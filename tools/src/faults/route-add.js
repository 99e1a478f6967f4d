// route-add: new routes applied while the scenario's load runs on the existing one. Each
// new route is probed until it answers 200; the time from the API server accepting the
// object to that first 200 is its propagation time. Anything other than 404 (not routed
// yet) → 200 on the way is an error of that route. In a duet both sides get the same
// edit at the same moment (one apply per side, issued together) and are probed alike.
import { kubeCommand as command, runEdits } from './route-edits.js';

export { defaults } from './route-edits.js';

export function kubeCommand(f, kubectl) {
  return command(f, kubectl, [
    'apply',
    '-f',
    `<route-add-<0..${f.routes - 1}>: an Ingress or HTTPRoute for r<i>.routes.bench.local>`,
  ]);
}

export function run(f, ctx) {
  return runEdits(f, 'add', ctx);
}
