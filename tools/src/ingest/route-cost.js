// What the route faults measured (targets/kube/routes.js events), per cell — one side of
// a duet. An edit is a route added, changed or removed; its propagation time runs from
// the API server accepting the edit to the data plane following it (a new route's first
// 200, a changed route's first answer from its new backend, a removed route's first
// 404). Answers on the way that were neither the old nor the new behaviour are errors of
// that edit. Every edit's time goes into one histogram, the distribution the gate reads
// (compare/propagation.js); an edit the data plane never followed is recorded at the time
// it was given up (a lower bound: the quantiles can only understate such a side).
import { encode, newHistogram, recordMs } from '../result/histogram.js';

const SETTLED = 'route-ready';
const UNSETTLED = 'route-not-ready';
export const EDITS = Object.freeze(['add', 'change', 'remove']);

export function routeCost(events, role = null) {
  const mine = events.filter((e) => (e.type === SETTLED || e.type === UNSETTLED) && (!role || e.side === role));
  if (!mine.length) return null;
  const editOf = (e) => (EDITS.includes(e.edit) ? e.edit : 'add');
  const timeOf = (e) => (e.type === SETTLED ? e.propagationMs : e.afterMs);
  const adds = mine.filter((e) => editOf(e) === 'add');
  const addMs = sortedTimes(adds.filter((e) => e.type === SETTLED));
  const hist = newHistogram();
  for (const e of mine) if (Number.isFinite(timeOf(e)) && timeOf(e) >= 0) recordMs(hist, Math.max(0.001, timeOf(e)));
  const count = (xs, f) => xs.reduce((a, e) => a + (Number.isFinite(f(e)) ? f(e) : 0), 0);
  const edits = {};
  for (const kind of EDITS) {
    const of = mine.filter((e) => editOf(e) === kind);
    if (!of.length) continue;
    const ms = sortedTimes(of.filter((e) => e.type === SETTLED));
    edits[kind] = {
      edits: of.length,
      settled: ms.length,
      p50Ms: rank(ms, 0.5),
      maxMs: ms.length ? ms.at(-1) : null,
      errors: count(of, (e) => e.errors),
    };
  }
  return {
    routes: adds.length,
    ready: addMs.length,
    notReady: adds.length - addMs.length,
    propagationMs: { p50: rank(addMs, 0.5), p99: rank(addMs, 0.99), max: addMs.length ? addMs.at(-1) : null },
    errorsDuringEdits: count(mine, (e) => e.errors),
    edits,
    unsettled: mine.filter((e) => e.type === UNSETTLED).length,
    // Given up on at its timeout (not because the load ended): a failed edit, an error.
    timedOut: mine.filter((e) => e.type === UNSETTLED && e.timedOut === true).length,
    probes: count(mine, (e) => e.probes),
    histogram: encode(hist),
  };
}

const sortedTimes = (evs) =>
  evs
    .map((e) => e.propagationMs)
    .filter(Number.isFinite)
    .sort((a, b) => a - b);

// Quantiles of a few dozen edits by rank: the count says how far to trust them.
function rank(ms, p) {
  return ms.length ? ms[Math.min(ms.length - 1, Math.max(0, Math.ceil(p * ms.length) - 1))] : null;
}

/** `routes: N` (targets/kube/carried-routes.js): what carrying them cost this side, or null. */
export function carriedCost(events, role = null) {
  const e = events.find((x) => x.type === 'routes-carried' && (!role || x.side === role));
  if (!e || !Number.isInteger(e.routes) || e.routes < 1) return null;
  const num = (v) => (Number.isFinite(v) ? v : null);
  const per100 = (v) => (v === null ? null : Number(((100 * v) / e.routes).toFixed(3)));
  const cpu = num(e.cpuSeconds);
  return {
    routes: e.routes,
    appliedMs: num(e.appliedMs),
    allAnsweredMs: num(e.allAnsweredMs),
    cpuSeconds: cpu,
    rssMiB: { before: num(e.rssMiBBefore), after: num(e.rssMiBAfter) },
    // Per 100 routes, CPU only: a Go or Lua heap's RSS moves by tens of MiB with its
    // collector, so the memory a route costs is the slope of RSS over a sweep of N.
    per100Routes: { cpuSeconds: per100(cpu) },
  };
}
