// What the route faults share: N edits of one kind, one every `every`, made on every side
// together by the target's `routes` (targets/kube/routes.js: Ingress or HTTPRoute, as the
// cell routes), each followed until the data plane shows it, or its timeout. Each route
// fault names the field that counts its edits (`routes`, `changes`).
import { InfraError } from '../errors.js';

export const defaults = Object.freeze({ every: '1s', timeout: '30s' });

// Route faults act on `routes`, which only kind's and an existing cluster's driver give:
// config refuses them on the local target, plan in an alternate duet (faults/schedule.js
// ROUTE_FAULTS).
export const editsRoutes = true;

/** How many edits a route fault makes: its count field (`routes`, `changes`), 1 without it. */
export const editCount = (f, field) => f[field] ?? 1;

/**
 * Every edit is made while the load runs, or the later ones are never measured. f and the
 * scenario with their milliseconds (`ms`, made by config/); returns config/validate.js's
 * [{field, message}].
 */
export function spanProblems(f, scenario, field) {
  const n = editCount(f, field);
  const spanMs = (n - 1) * f.ms.every + f.ms.startAfter;
  if (spanMs < scenario.ms.duration) return [];
  return [
    {
      field,
      message: `${n} ${field} every ${f.every} take ${spanMs / 1000}s to make, not less than the scenario's duration ${scenario.duration}: fewer ${field}, a shorter every, or a longer duration`,
    },
  ];
}

/** fault: the fault's place in the scenario's list — its edits' objects are its own. */
export async function runEdits(f, edit, field, { routes, pause, signal, fault }) {
  if (!routes) throw new InfraError(`${f.type} needs a target that applies routes (kind or an existing cluster)`);
  const { every, timeout: timeoutMs } = f.ms;
  const follows = [];
  for (let i = 0; i < editCount(f, field) && !signal.aborted; i++) {
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
