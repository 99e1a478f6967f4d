// What the route faults share: N edits of one kind, one every `every`, made on every side
// together by the target's `routes` (targets/kube/routes.js: Ingress or HTTPRoute, as the
// cell routes), each followed until the data plane shows it, or its timeout.
import { InfraError } from '../errors.js';

export const defaults = Object.freeze({ every: '1s', timeout: '30s' });

/** How many edits a route fault makes (its schedule's count field). */
export const editCount = (f) => f.routes ?? f.changes ?? 1;

/** fault: the fault's place in the scenario's list — its edits' objects are its own. */
export async function runEdits(f, edit, { routes, pause, signal, fault }) {
  if (!routes) throw new InfraError(`${f.type} needs a target that applies routes (kind or an existing cluster)`);
  const { every, timeout: timeoutMs } = f.ms;
  const follows = [];
  for (let i = 0; i < editCount(f) && !signal.aborted; i++) {
    follows.push(routes[edit](i, { timeoutMs, signal, fault }));
    // A change waits for the one before it: each switches the same route back or forth
    // (the changes of several faults wait for each other in the target's routes).
    if (edit === 'change') await follows.at(-1);
    await pause(every);
  }
  // Every edit is followed to its end (done, timed out, or the load ended first).
  const failed = (await Promise.allSettled(follows)).filter((r) => r.status === 'rejected');
  if (failed.length) throw failed[0].reason;
}

export function kubeCommand(f, kubectl, what) {
  return { every: f.every, argv: kubectl(...what) };
}
