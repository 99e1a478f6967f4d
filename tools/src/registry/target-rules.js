// Every target's rules, what only it decides: the controller type its matrices use, its
// defaults, the order of its cells, one job or one per cell in CI, whether it runs duets,
// its own config problems. Config and plan read these; its driver (targets/index.js) is
// the run stage's. A new target is a folder under targets/, an entry here and in targets/
// index.js (plus its name in the schema's enum). kind and an existing cluster drive real
// controllers the same way.
import { catalogProblems } from './catalog.js';
import { machineClass } from '../result/machine.js';
import { parseDuration } from '../units.js';
import { ROUTE_FAULTS } from '../faults/schedule.js';

const own = (obj, key) => (Object.hasOwn(obj, key) ? obj[key] : undefined);

// The local target's own rules: what its processes can do, and what needs a cluster.
function localProblems(cfg, mname, m, add) {
  for (const c of m.controllers) {
    const ctl = own(cfg.controllers, c);
    if (ctl?.type === 'local' && ctl.proxyDelay && parseDuration(ctl.proxyDelay) > 0 && ctl.variant !== 'nginx-dynamic')
      add(['controllers', c, 'proxyDelay'], 'only the nginx-dynamic variant can add a proxy delay (it has Lua)');
  }
  if (m.nodeLatency && parseDuration(m.nodeLatency) > 0 && m.isolation !== 'netns')
    add(['matrices', mname, 'nodeLatency'], 'needs isolation: netns');
  if (m.interleave)
    add(['matrices', mname, 'interleave'], 'applies to target "kind" only (a cluster per controller, all kept up)');
  // Route faults edit routes through the Kubernetes API: the local target has none.
  const elsewhere = 'run it on kind or an existing cluster';
  for (const sname of m.scenarios) {
    if (own(cfg.scenarios, sname)?.routes)
      add(
        ['scenarios', sname, 'routes'],
        `carried routes are Ingress or HTTPRoute objects made through the Kubernetes API, and matrix "${mname}" runs on target local: ${elsewhere}`,
      );
    (own(cfg.scenarios, sname)?.faults ?? []).forEach((f, i) => {
      if (ROUTE_FAULTS.includes(f.type))
        add(
          ['scenarios', sname, 'faults', i, 'type'],
          `${f.type} edits Ingress or HTTPRoute objects through the Kubernetes API, and matrix "${mname}" runs on target local: ${elsewhere}`,
        );
    });
  }
}

// kind and an existing cluster: the catalog's rules (the routing a controller supports, an
// overlay per tuning: `tailgate validate` reports what `run` would refuse), and no
// loopback isolation.
function kubeProblems(cfg, mname, m, add) {
  if (m.isolation || m.nodeLatency) add(['matrices', mname], 'isolation and nodeLatency apply to target "local" only');
  catalogProblems(cfg, mname, m, add);
}

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
  problems: kubeProblems,
};

export const TARGET_RULES = Object.freeze({
  local: {
    controllerType: 'local',
    // Repetitions outermost: all cells of rep 1, then rep 2 — drift spreads over cells.
    order: 'repetition-first',
    oneJob: true,
    // Concurrent A/B: a second data plane in front of the same pods.
    duet: true,
    problems: localProblems,
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
    // A duet without head: a PR's (run --duet-base, the base checkout's bench.yaml); the
    // backend's canaries for a duet's head (headDelay, headErrors, …); alternate sides.
    prDuet: true,
    canaries: true,
    defaults(m) {
      m.cluster ??= 'single';
    },
  },
  cluster: {
    ...KUBE,
    problems(cfg, mname, m, add) {
      if (m.interleave)
        add(['matrices', mname, 'interleave'], 'applies to target "kind" only (a cluster per controller, all kept up)');
      kubeProblems(cfg, mname, m, add);
    },
    defaults() {},
  },
});

export function targetRules(name) {
  if (!Object.hasOwn(TARGET_RULES, name))
    throw new Error(`unknown target ${JSON.stringify(name)}; known: ${Object.keys(TARGET_RULES).join(', ')}`);
  return TARGET_RULES[name];
}
