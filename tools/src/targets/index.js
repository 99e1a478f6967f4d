// Every target, and what only it decides, in one place: the controller type its
// matrices use, its defaults, the order of its cells, one job or one per cell in CI,
// and where its driver lives (loaded only when a run needs it). A new target is a
// folder under targets/ and an entry here (plus its name in the schema's enum).
// kind and an existing cluster drive real controllers the same way.
import { catalogProblems } from './kube/catalog.js';

const KUBE = {
  controllerType: 'helm',
  // Controller outermost: one cluster per controller, tunings as helm upgrades.
  order: 'controller-first',
  oneJob: false,
  // The catalog's rules (the routing a controller supports, an overlay per tuning):
  // `tailgate validate` reports what `run` would refuse.
  problems: catalogProblems,
  driver: () => import('./kube/driver.js'),
};

export const TARGETS = Object.freeze({
  local: {
    controllerType: 'local',
    // Repetitions outermost: all cells of rep 1, then rep 2 — drift spreads over cells.
    order: 'repetition-first',
    oneJob: true,
    // Concurrent A/B: a second data plane in front of the same pods.
    duet: true,
    defaults(m) {
      m.profile ??= 'local';
      m.isolation ??= 'loopback';
      m.nodeLatency ??= '0ms';
    },
    driver: () => import('./local/driver.js'),
  },
  kind: {
    ...KUBE,
    // Concurrent A/B: the head's controller as a second release in the same cluster, on
    // a second host port (an existing cluster would need a second --target-url: not yet).
    duet: true,
    defaults(m) {
      m.cluster ??= 'single';
    },
  },
  cluster: { ...KUBE, defaults() {} },
});

export function target(name) {
  if (!Object.hasOwn(TARGETS, name))
    throw new Error(`unknown target ${JSON.stringify(name)}; known: ${Object.keys(TARGETS).join(', ')}`);
  return TARGETS[name];
}
