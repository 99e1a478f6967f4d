// Defaulting is separate from validation (as in kind): validation sees what the
// user wrote, the rest of tailgate sees a config where every field is present.
import { parseDuration } from '../units.js';
import { TARGET_RULES as TARGETS } from '../registry/target-rules.js';

export const GATE_DEFAULTS = {
  confidence: 0.95,
  // p99 varied 24% run to run on a 2-core VM (make perf): assume that much by default.
  assumedRunCv: 0.25,
  // A duet's pair ratio (base and head at once, the same pods): 30 A/A duet pairs of
  // Traefik on kind had sd(log head/base p99) 0.187 (make perf, kind part).
  assumedDuetCv: 0.19,
  // The same for cells with faults (pod-kill, churn, rollout): a few stalls per kill set
  // their p99, so pairs vary far more — 11 Traefik pod-kill duet pairs of 45 s on kind had
  // sd(log head/base p99) ≈ 0.25 against 0.06 for steady pairs (../shared/FACTS.md).
  assumedFaultDuetCv: 0.25,
  // floor "auto": the timer's and histogram's resolution (compare/gate.js floorMs);
  // the relative threshold is what keeps a 0.3 -> 0.33 ms change green.
  // p99.99 is advisory by default: gating it needs 100k samples per side (validate
  // checks this per matrix); a matrix that has them turns it on with its own `gate`.
  latency: {
    p50: { threshold: '10%', floor: 'auto', blocking: false },
    p90: { threshold: '10%', floor: 'auto', blocking: false },
    p99: { threshold: '10%', floor: 'auto', blocking: true },
    'p99.9': { threshold: '15%', floor: 'auto', blocking: false },
    'p99.99': { threshold: '25%', floor: 'auto', blocking: false },
  },
  // Route propagation (cells with route faults only; compare/propagation.js): the time
  // the data plane takes to follow a route edit. Hundreds of ms move with a controller's
  // sync loop (Traefik's providers throttle, haproxy-ingress's update interval), so the
  // floors keep a few tens of ms green; p99 needs 300 edits per side before it gates.
  propagation: {
    p50: { threshold: '25%', floor: '100ms', blocking: true },
    p90: { threshold: '25%', floor: '200ms', blocking: true },
    p99: { threshold: '50%', floor: '500ms', blocking: true },
  },
  // A duet's failover, kill by kill (duet cells with pod-kill; compare/failover.js): each
  // kill's exposure on both sides (the kill → the send of the last request it held up),
  // every kill counted. A request held up less than the floor does not count ("auto":
  // 100ms); 15% of the exposure is a 30% slower failover caught within 6 pairs on kind.
  failover: { threshold: '15%', floor: '100ms', blocking: true },
  // The data plane's CPU per 1,000 requests, each side's own cgroups (compare/cpu.js):
  // advisory unless a team asks to gate its cost. No absolute floor: CPU has no timer
  // resolution, the relative threshold decides.
  cpu: { threshold: '10%', floor: '0ms', blocking: false },
  errors: { blocking: true, zeroStaysZero: false, minExtra: 2 },
  // maxSharedDroppedRatio: a duet's two sides share one k6, so the iterations it drops
  // are both sides' alike (validity.js); they void the pair only beyond this share.
  validity: { maxDroppedRatio: 0.001, maxSharedDroppedRatio: 0.02, minAchievedRatio: 0.97, minSamples: 1000 },
};

export const SCENARIO_DEFAULTS = {
  duration: '30s',
  warmup: '0s',
  vus: 50,
  tls: false,
  payload: '0KiB',
  timeout: '10s',
  replicas: 2,
  faults: [],
  loadFrom: 'runner',
  runners: 1,
};

export const LOCAL_CONTROLLER_DEFAULTS = {
  retries: 'on',
  updateLag: '0ms',
  backendDelay: '0ms',
  proxyDelay: '0ms',
  backendErrorRate: 0,
};

export function applyDefaults(raw) {
  const cfg = structuredClone(raw);
  cfg.profiles ??= {};
  cfg.profiles.local ??= { description: 'This machine, no Docker, no cluster', runner: 'local' };
  cfg.tunings ??= {};
  cfg.tunings.default ??= { description: 'Proxy and chart defaults' };
  for (const c of Object.values(cfg.controllers)) {
    if (c.type === 'local') Object.assign(c, { ...LOCAL_CONTROLLER_DEFAULTS, ...c });
  }
  for (const s of Object.values(cfg.scenarios)) {
    Object.assign(s, { ...SCENARIO_DEFAULTS, ...s });
    // The file's engine for every scenario that names none (the run resolves auto).
    if (s.engine === undefined && cfg.engine !== undefined) s.engine = cfg.engine;
    if (s.maxVus === undefined) {
      s.maxVus = littleVus(s);
      derivedVus.add(s);
    }
  }
  const userGate = cfg.gate ?? {};
  cfg.gate = mergeGate(userGate);
  for (const m of Object.values(cfg.matrices)) {
    // A matrix's own gate is laid over the top-level one, rule by rule.
    m.gate = m.gate ? mergeGate(layer(userGate, m.gate)) : cfg.gate;
    m.tunings ??= ['default'];
    m.repetitions ??= 1;
    m.compare ??= 'baseline';
    TARGETS[m.target]?.defaults(m, cfg);
  }
  return cfg;
}

// Scenarios whose maxVus is derived (Little's law), not written: a matrix that runs them at
// another rate derives its own.
const derivedVus = new WeakSet();
const asRun = new WeakMap();

/**
 * A scenario as a matrix runs it: the matrix's duration (bench.yaml or --duration) and rate
 * (--rate, on scenarios that have one) laid over it, maxVus derived from the rate that runs
 * unless written. The scenario itself where the matrix changes nothing; made once per
 * matrix and scenario, so validation, normalise and plan see one object.
 */
export function scenarioAsRun(cfg, m, name) {
  const s = Object.hasOwn(cfg.scenarios, name) ? cfg.scenarios[name] : undefined;
  const rate = m.rate !== undefined && s?.rate !== undefined;
  if (!s || (!rate && m.duration === undefined)) return s;
  let made = asRun.get(m);
  if (!made) asRun.set(m, (made = new Map()));
  if (!made.has(name)) {
    const run = { ...s, ...(rate && { rate: m.rate }), ...(m.duration !== undefined && { duration: m.duration }) };
    if (derivedVus.has(s)) run.maxVus = littleVus(run);
    made.set(name, run);
  }
  return made.get(name);
}

/** The gate of a repository without bench.yaml: tailgate's defaults, every rule present. */
export const defaultGate = () => mergeGate({});

function layer(top, over) {
  const rules = (key) => {
    const out = { ...top[key] };
    for (const [q, rule] of Object.entries(over[key] ?? {})) out[q] = { ...out[q], ...rule };
    return out;
  };
  return {
    ...top,
    ...over,
    latency: rules('latency'),
    propagation: rules('propagation'),
    failover: { ...top.failover, ...over.failover },
    cpu: { ...top.cpu, ...over.cpu },
    errors: { ...top.errors, ...over.errors },
    validity: { ...top.validity, ...over.validity },
  };
}

// Little's law: requests in flight = rate × time in the system. With enough VUs for
// every request to wait out its timeout, k6 drops an iteration only when the system
// under test held them all — so a drop means "the system got slower", not "k6 ran
// short" (compare/validity.js). VUs beyond the pre-allocated ones start only when
// needed; the cap bounds k6's memory when a system stalls completely.
const MAX_VUS_CAP = 2000;
function littleVus(s) {
  const rate = s.rate ?? s.maxRate ?? 0;
  const timeoutS = parseDuration(s.timeout) / 1000;
  return Math.max(s.vus, 4 * s.vus, Math.min(MAX_VUS_CAP, Math.ceil(rate * timeoutS)));
}

function mergeGate(gate) {
  const rules = (key) => {
    const out = {};
    for (const [q, rule] of Object.entries(GATE_DEFAULTS[key])) out[q] = { ...rule, ...gate[key]?.[q] };
    return out;
  };
  return {
    confidence: gate.confidence ?? GATE_DEFAULTS.confidence,
    assumedRunCv: gate.assumedRunCv ?? GATE_DEFAULTS.assumedRunCv,
    assumedDuetCv: gate.assumedDuetCv ?? GATE_DEFAULTS.assumedDuetCv,
    assumedFaultDuetCv: gate.assumedFaultDuetCv ?? GATE_DEFAULTS.assumedFaultDuetCv,
    latency: rules('latency'),
    propagation: rules('propagation'),
    failover: { ...GATE_DEFAULTS.failover, ...gate.failover },
    cpu: { ...GATE_DEFAULTS.cpu, ...gate.cpu },
    errors: { ...GATE_DEFAULTS.errors, ...gate.errors },
    validity: { ...GATE_DEFAULTS.validity, ...gate.validity },
  };
}
