// Runs a scenario's fault schedule beside k6 on the same clock. Faults act on a
// "pods" object (the local PodSet, or kubectl on a cluster) with the same small
// interface, so one schedule in bench.yaml means the same thing on every target.
import * as churn from './churn.js';
import * as killPause from './kill-pause.js';
import * as podKill from './pod-kill.js';
import * as rollout from './rollout.js';
import * as routeAdd from './route-add.js';
import * as routeChange from './route-change.js';
import * as routeRemove from './route-remove.js';

// The registry: a fault type is its file and its line here (and its type and fields in
// schemas/bench.schema.json: tools/test/unit/adding-things.test.js holds the two together).
// Each fault module exports run(f, {pods, routes, events, signal, pause, fault}),
// kubeCommand(f, kubectl) — what one action looks like on a cluster, for the dry run — and
// its `defaults`. Route faults act on `routes` (the configuration plane), the others on
// `pods`; `fault` is the fault's place in the scenario's list, which keeps two faults of
// one kind off each other's objects (targets/kube/routes.js). What other stages need of a
// fault is its module's too, read from here, never a switch on its type elsewhere:
//   problems(f, scenario)   what config/validate.js refuses beyond the schema (both with ms)
//   editsRoutes             acts on `routes`: kind or a cluster, not an alternate duet
//   killsPods               its actions are pod-killed events (a duet's failover test)
//   usesBackendAlt          switches to the backend's second Service (kind installs it)
//   deploymentStrategy(f)   the backend Deployment's strategy on a cluster
export const FAULTS = Object.freeze({
  'pod-kill': podKill,
  churn,
  rollout,
  'kill-pause': killPause,
  'route-add': routeAdd,
  'route-change': routeChange,
  'route-remove': routeRemove,
});

const typesWith = (prop) => Object.freeze(Object.keys(FAULTS).filter((t) => FAULTS[t][prop]));

/** Faults that edit routes: they need a target whose driver gives `routes` (kind, a cluster). */
export const ROUTE_FAULTS = typesWith('editsRoutes');

/** Faults whose actions are pod kills, gated kill by kill in a duet (compare/failover.js). */
export const KILL_FAULTS = typesWith('killsPods');

// The fault fields that are durations: config/normalise.js faultTiming makes their
// milliseconds (`f.ms`), the only form a fault acts on. A fault with a new duration field
// adds it here (the registry test compares this list with the schema's fault fields).
export const FAULT_DURATIONS = Object.freeze(['every', 'startAfter', 'replaceAfter', 'pause', 'timeout']);

// The events that are a fault's action on the backend: faults/actions.js.
export { FAULT_ACTIONS } from './actions.js';

export function faultModule(type) {
  if (!Object.hasOwn(FAULTS, type))
    throw new Error(`unknown fault type ${JSON.stringify(type)}; known: ${Object.keys(FAULTS).join(', ')}`);
  return FAULTS[type];
}

/**
 * Starts every fault of a scenario after `offsetMs`; returns stop() -> Promise. faults: with
 * their milliseconds (config/normalise.js faultTiming) — a fault acts on those only.
 */
export function startFaults(faults, { pods, routes = null, events, offsetMs = 0 }) {
  const untimed = faults.find((f) => !f.ms);
  if (untimed) throw new Error(`fault ${untimed.type}: not timed (config/normalise.js faultTiming)`);
  const controller = new AbortController();
  const { signal } = controller;
  const runs = faults.map(async (f, fault) => {
    await pause(offsetMs + f.ms.startAfter, signal);
    if (signal.aborted) return;
    events.emit('fault-start', { fault: f.type });
    try {
      await faultModule(f.type).run(f, { pods, routes, events, signal, pause: (ms) => pause(ms, signal), fault });
    } catch (err) {
      if (!signal.aborted) events.emit('fault-error', { fault: f.type, error: err.message });
      throw err;
    }
  });
  const settled = Promise.allSettled(runs);
  return {
    async stop() {
      controller.abort();
      const out = await settled;
      return out.filter((r) => r.status === 'rejected').map((r) => r.reason);
    },
  };
}

// Faults begin after the load has started — k6 takes about a second to start and run its
// setup() preflight, and every engine starts its load that long after it is called — and
// after the warm-up: a fault during the preflight would abort the run.
export const LOAD_START_MS = 1000;

export function faultOffsetMs(warmupMs) {
  return LOAD_START_MS + warmupMs;
}

export function pause(ms, signal) {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
