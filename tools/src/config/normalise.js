// bench.yaml's durations and percentages as numbers, made once per object and in this file
// only, with the defaults a stage would otherwise write at its call site ("?? '60s'"):
// defaults.js's where it has them (an object that did not come through load gets the same),
// the rest here.
// The written form stays in the config: results record a scenario as written (a workload
// is compared with committed baselines as written, compare/workload.js), and the effective
// config shows what the user wrote. load.js normalises every section after the defaults,
// so a value that cannot become a number fails there, naming the check, not mid-run; an
// object made elsewhere (a test, a scenario read back from a result) gets the same numbers
// on its first use.
import { parseDuration, parsePercent } from '../units.js';
import { FAULT_DURATIONS, faultModule } from '../faults/schedule.js';
import { LOCAL_CONTROLLER_DEFAULTS as CONTROLLER, SCENARIO_DEFAULTS as SCENARIO, scenarioAsRun } from './defaults.js';

const ms = (text, fallback) => parseDuration(text ?? fallback);
const share = (text) => (text === undefined ? 0 : parsePercent(text));

function once(make) {
  const made = new WeakMap();
  return (obj) => {
    let v = made.get(obj);
    if (!v) made.set(obj, (v = Object.freeze(make(obj))));
    return v;
  };
}

/** A scenario's times in ms; sloP99 is the saturation search's latency objective. */
export const scenarioMs = once((s) => ({
  warmup: ms(s.warmup, SCENARIO.warmup),
  duration: ms(s.duration, SCENARIO.duration),
  timeout: ms(s.timeout, SCENARIO.timeout),
  pause: s.pause === undefined ? null : ms(s.pause),
  headDelay: ms(s.headDelay, '0ms'),
  sloP99: ms(s.slo?.p99, '50ms'),
}));

/** A scenario's duet canaries as fractions (0.02 for "2%"); 0 where not set. */
export const scenarioShares = once((s) => ({
  headDelayShare: share(s.headDelayShare),
  headErrors: share(s.headErrors),
  headAltErrors: share(s.headAltErrors),
  backendErrors: share(s.backendErrors),
}));

/** A local controller's injected delays in ms. */
export const controllerMs = once((c) => ({
  updateLag: ms(c.updateLag, CONTROLLER.updateLag),
  backendDelay: ms(c.backendDelay, CONTROLLER.backendDelay),
  proxyDelay: ms(c.proxyDelay, CONTROLLER.proxyDelay),
}));

/** A tuning's proxy timeouts in ms (nginx's and HAProxy's own defaults where unset). */
export const tuningMs = once((t) => ({
  connectTimeout: ms(t.connectTimeout, '5s'),
  readTimeout: ms(t.readTimeout, '60s'),
}));

/** A matrix's (or a cell's, which carries it) emulated node latency in ms. */
export const nodeLatencyMs = once((m) => ms(m.nodeLatency, '0ms'));

// A fault's durations: bench.yaml writes them as people read them ("5s"), results keep that
// written form, and every fault acts on the milliseconds made here (`ms`), its type's
// defaults (each fault file's `defaults`) filled in — the fault as written, plus them.
// Which fields are durations is the fault registry's (faults/schedule.js FAULT_DURATIONS).
export const faultTiming = once((f) => {
  const full = { startAfter: '0s', ...faultModule(f.type).defaults, ...f };
  const times = FAULT_DURATIONS.filter((k) => full[k] !== undefined).map((k) => [k, parseDuration(full[k])]);
  return { ...full, ms: Object.freeze(Object.fromEntries(times)) };
});

/** A gate rule's threshold as a fraction and its floor in ms (null: "auto", compare/gate.js floorMs). */
export const ruleNumbers = once((rule) => ({
  threshold: parsePercent(rule.threshold),
  floorMs: rule.floor === 'auto' || rule.floor === undefined ? null : parseDuration(rule.floor),
}));

/** Every section's numbers, made now: a value that cannot become one throws here, in load. */
export function normalise(cfg) {
  for (const s of Object.values(cfg.scenarios ?? {})) {
    scenarioMs(s);
    scenarioShares(s);
    for (const f of s.faults ?? []) faultTiming(f);
  }
  for (const c of Object.values(cfg.controllers ?? {})) if (c.type === 'local') controllerMs(c);
  for (const t of Object.values(cfg.tunings ?? {})) tuningMs(t);
  for (const m of Object.values(cfg.matrices ?? {})) {
    nodeLatencyMs(m);
    // A scenario as the matrix runs it (its duration, --rate) is an object of its own.
    for (const name of m.scenarios ?? []) {
      const s = Object.hasOwn(cfg.scenarios ?? {}, name) ? scenarioAsRun(cfg, m, name) : null;
      if (s && s !== cfg.scenarios[name]) scenarioMs(s);
    }
  }
  const gates = [cfg.gate, ...Object.values(cfg.matrices ?? {}).map((m) => m.gate)].filter(Boolean);
  for (const g of gates)
    for (const rule of [
      ...Object.values(g.latency ?? {}),
      ...Object.values(g.propagation ?? {}),
      ...(g.failover ? [g.failover] : []),
      ...(g.cpu ? [g.cpu] : []),
    ])
      ruleNumbers(rule);
  return cfg;
}
