// route-add: new routes applied while the scenario's load runs on the existing one. Each
// new route is probed until it answers 200; the time from the API server accepting the
// object to that first 200 is its propagation time. Anything other than 404 (not routed
// yet) → 200 on the way is an error of that route. In a duet both sides get the same
// edit at the same moment (one apply per side, issued together) and are probed alike.
// The routes are applied and probed by the target's `routes` (targets/kube/routes.js):
// Ingress or HTTPRoute, as the cell routes.
import { InfraError } from '../errors.js';
import { parseDuration } from '../units.js';

export const DEFAULTS = Object.freeze({ every: '1s', timeout: '30s' });

export function kubeCommand(f, kubectl) {
  return {
    every: f.every ?? DEFAULTS.every,
    argv: kubectl(
      'apply',
      '-f',
      `<route-add-<0..${f.routes - 1}>: an Ingress or HTTPRoute for r<i>.routes.bench.local>`,
    ),
  };
}

export async function run(f, { routes, pause, signal }) {
  if (!routes) throw new InfraError('route-add needs a target that applies routes (kind or an existing cluster)');
  const every = parseDuration(f.every ?? DEFAULTS.every);
  const timeoutMs = parseDuration(f.timeout ?? DEFAULTS.timeout);
  const probes = [];
  for (let i = 0; i < f.routes && !signal.aborted; i++) {
    probes.push(routes.add(i, { timeoutMs, signal }));
    await pause(every);
  }
  // Every route is followed to its end (ready, timed out, or the load ended first).
  const failed = (await Promise.allSettled(probes)).filter((r) => r.status === 'rejected');
  if (failed.length) throw failed[0].reason;
}
