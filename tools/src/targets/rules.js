// Every target's rules, what only it decides: the controller type its matrices use, its
// defaults, the order of its cells, one job or one per cell in CI, whether it runs duets,
// its own config problems. Config and plan read these; its driver (targets/index.js) is
// the run stage's. A new target is a folder under targets/, an entry here and in
// index.js (plus its name in the schema's enum). kind and an existing cluster drive real
// controllers the same way.
import { catalogProblems } from './kube/catalog.js';
import { machineClass } from '../result/machine.js';

// A local matrix without a profile: the first local profile whose machine class is this
// machine's (make bench's committed baselines are kept for one), else "local".
function localProfile(cfg) {
  const here = machineClass();
  const match = Object.entries(cfg?.profiles ?? {}).find(
    ([, p]) => p.runner === 'local' && p.machine?.cpus === here.cpus && p.machine?.os === here.os,
  );
  return match ? match[0] : 'local';
}

const KUBE = {
  controllerType: 'helm',
  // Controller outermost: one cluster per controller, tunings as helm upgrades.
  order: 'controller-first',
  oneJob: false,
  // The catalog's rules (the routing a controller supports, an overlay per tuning):
  // `tailgate validate` reports what `run` would refuse.
  problems: catalogProblems,
};

export const TARGET_RULES = Object.freeze({
  local: {
    controllerType: 'local',
    // Repetitions outermost: all cells of rep 1, then rep 2 — drift spreads over cells.
    order: 'repetition-first',
    oneJob: true,
    // Concurrent A/B: a second data plane in front of the same pods.
    duet: true,
    defaults(m, cfg) {
      m.profile ??= localProfile(cfg);
      m.isolation ??= 'loopback';
      m.nodeLatency ??= '0ms';
    },
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

export function targetRules(name) {
  if (!Object.hasOwn(TARGET_RULES, name))
    throw new Error(`unknown target ${JSON.stringify(name)}; known: ${Object.keys(TARGET_RULES).join(', ')}`);
  return TARGET_RULES[name];
}
