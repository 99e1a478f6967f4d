// What a route fault measured (targets/kube/routes.js events): per cell — one side of a
// duet — how many new routes were applied, how many answered, their propagation times
// (from the API server accepting the object to the first 200) and the answers on the way
// that were neither 404 nor 200. Quantiles of a few dozen routes by rank: the route count
// says how far to trust p99.
const READY = 'route-ready';
const NOT_READY = 'route-not-ready';

export function routeCost(events, role = null) {
  const mine = events.filter((e) => (e.type === READY || e.type === NOT_READY) && (!role || e.side === role));
  if (!mine.length) return null;
  const ms = mine
    .filter((e) => e.type === READY && Number.isFinite(e.propagationMs))
    .map((e) => e.propagationMs)
    .sort((a, b) => a - b);
  const rank = (p) => (ms.length ? ms[Math.min(ms.length - 1, Math.max(0, Math.ceil(p * ms.length) - 1))] : null);
  return {
    routes: mine.length,
    ready: ms.length,
    notReady: mine.length - ms.length,
    propagationMs: { p50: rank(0.5), p99: rank(0.99), max: ms.length ? ms.at(-1) : null },
    errorsDuringEdits: mine.reduce((a, e) => a + (Number.isFinite(e.errors) ? e.errors : 0), 0),
  };
}
