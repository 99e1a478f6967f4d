// Synthetic duet PRs with pod kills (seeded), calibrated on the recorded A/A pod-kill runs
// of 2026-11-28 (../shared/runs/, Vegeta, 250 req/s a side, a kill every ~5.2 s, 80 kills
// in the measured window each; per kill and side as tools/perf/failover-kills.js prints
// them). A kill is live with probability `active` (haproxy-ingress: 26 of 80 kills held up
// nothing on either side), and then hits each side on its own with probability q —
// haproxy-ingress: 36 kills hit both, 18 one side (active 0.7, q 0.8); Traefik: 72 both,
// 6 one side, 2 neither (active 0.98, q 0.96). A kill's exposure (the kill → the send of
// the last request it held up) is log-normal between kills (haproxy-ingress: median
// 209 ms, sd of the log 0.89; Traefik 765 ms, 0.56), and the two sides of one kill track
// it: haproxy-ingress within a few percent (robust sd of the log ratio 0.09) but for 1
// kill in 16 one side ×2–×8 (a 5 s `timeout connect` on one side); Traefik loosely (each
// side's controller drops the endpoint at its own moment: robust sd 0.36, and 1 kill in 8
// one side ×2–×5). A side's held-up requests arrive at `density` per second of exposure
// (haproxy-ingress 23/s, Traefik 59/s, of 250/s), the last at the exposure, each waiting
// 100–500 ms — or, at `timeout` of the hits, one of them the client's 10 s timeout (Traefik
// ~half its hits). The head's exposure is headFactor × the base's (the canary's failover),
// its held-up requests at the same density, so ×1.3 is about 30% more of them. Each run's
// kills go through the real path (events + requests ≥ 100 ms from their send →
// ingest/fault-cost.js, as aggregate.js keeps them), so the gate reads per-kill costs as it
// reads them from a kind run. A PR is a steady cell and a pod-kill cell, `pairs` duet pairs
// each; p99 moves by the duet's own noise (sd of the log pair ratio: 0.12 steady, 0.16
// pod-kill) and not with the failover, which p99 does not see.
import { AGGREGATE_LIMITS } from '../../src/ingest/aggregate.js';
import { faultCost } from '../../src/ingest/fault-cost.js';
import { simRep } from './pr-sim.js';
import { rng } from './synthetic.js';

export const KILLS = Object.freeze({
  active: 0.7,
  q: 0.8,
  medianMs: 209,
  spreadSd: 0.89,
  pairSd: 0.09,
  outlier: 1 / 16,
  outlierLog: [0.7, 2.1],
  density: 23,
  timeout: 0,
  kills: 8,
  everyMs: 5200,
});

export const TRAEFIK_KILLS = Object.freeze({
  ...KILLS,
  active: 0.98,
  q: 0.96,
  medianMs: 765,
  spreadSd: 0.56,
  pairSd: 0.36,
  outlier: 1 / 8,
  outlierLog: [0.7, 1.6],
  density: 59,
  timeout: 0.5,
});

// headFactor: the head's exposure over the base's on every kill (the canary's failover);
// baseQ: the base's own chance to be hit at a live kill (q the head's); p99Factor: the
// head's p99 over the base's in the pod-kill cell.
export function simulateFailoverPr(seed, opts = {}) {
  const o = { ...KILLS, pairs: 3, headFactor: 1, p99Factor: 1, pairOffset: 0, ...opts };
  const r = rng(seed);
  const normal = () => Math.sqrt(-2 * Math.log(r() || 1e-12)) * Math.cos(2 * Math.PI * r());
  const cut = AGGREGATE_LIMITS.lagMs;
  // One side's held-up requests at a kill at ts whose exposure is `exposure` ms: spread
  // over the window at the side's density, the last one sent at its end.
  const held = (ts, exposure) => {
    const n = Math.max(1, Math.round((o.density * exposure) / 1000 + (r() - 0.5)));
    const out = [];
    for (let i = 0; i < n; i++) {
      const sent = ts + (i === n - 1 ? exposure : r() * exposure);
      const ms = cut + 400 * r();
      out.push({ sent, end: sent + ms, ms });
    }
    if (r() < o.timeout) out[n - 1] = { ...out[n - 1], end: out[n - 1].sent + 10_000, ms: 10_000 };
    return out;
  };
  const cell = (name, sdLog, faults) => {
    const base = [];
    const head = [];
    for (let i = 0; i < o.pairs; i++) {
      const pair = o.pairOffset + i + 1;
      const t0 = Date.parse('2026-11-27T10:00:00Z') + pair * 120_000;
      const events = faults
        ? Array.from({ length: o.kills }, (_, k) => ({ type: 'pod-killed', ts: t0 + (k + 1) * o.everyMs }))
        : [];
      const lag = { a: [], b: [] };
      for (const e of events) {
        const level = o.medianMs * Math.exp(o.spreadSd * normal());
        const odd = r() < o.outlier ? (r() < 0.5 ? 'a' : 'b') : null;
        const jump = Math.exp(o.outlierLog[0] + (o.outlierLog[1] - o.outlierLog[0]) * r());
        const live = r() < o.active;
        for (const side of ['a', 'b']) {
          if (!live || r() >= (side === 'a' ? (o.baseQ ?? o.q) : o.q)) continue;
          const exposure =
            level *
            Math.exp((o.pairSd / Math.SQRT2) * normal()) *
            (side === 'b' ? o.headFactor : 1) *
            (odd === side ? jump : 1);
          lag[side].push(...held(e.ts, exposure));
        }
      }
      const ratio = Math.exp(sdLog * normal());
      const run = (side, p99) => {
        const rep = simRep({
          source: `sim-${name}#${pair}${side}`,
          percentiles: { p50: p99 / 4, p90: p99 / 2, p99, 'p99.9': p99 * 3, 'p99.99': p99 * 6, max: p99 * 10 },
          intervals: {},
          requests: 22_500,
          errors: { total: 0, byClass: {} },
          pair,
          t: t0,
          side,
          faults,
        });
        if (!faults) return rep;
        const slow = lag[side].filter((x) => x.ms >= AGGREGATE_LIMITS.slowMs);
        const cost = faultCost(events, slow, 0, [], { requests: lag[side], cutMs: cut, complete: true });
        return { ...rep, events, faultCost: cost };
      };
      const p99 = faults ? 40 : 4;
      base.push(run('a', p99));
      head.push(run('b', p99 * ratio * (faults ? o.p99Factor : 1)));
    }
    return { cell: `haproxy-ingress/default/${name}`, base, head };
  };
  return [cell('steady', 0.12, false), cell('pod-kill', 0.16, true)];
}

/**
 * A duet pod-kill cell made of recorded kills (tools/test/fixtures/kills/<run>.json:
 * exposure, held-up count and stall of each kill on each side, from failover-kills.js):
 * `pairs` pairs drawn from the run's with replacement, each kill's two sides swapped at
 * random (an A/A run's sides are exchangeable), the head's exposure and held-up requests ×
 * factor (at a constant arrival rate a longer exposure holds up as many more; its stall
 * moves by the added exposure); baseMisses: the share of the kills that hit the head where
 * the base is held up by nothing (a head that hangs at kills where the base does not).
 * p99 moves by the duet's own noise (0.16).
 */
export function recordedFailoverCell(run, seed, { pairs = 6, factor = 1, baseMisses = 0 } = {}) {
  const r = rng(seed);
  const normal = () => Math.sqrt(-2 * Math.log(r() || 1e-12)) * Math.cos(2 * Math.PI * r());
  const base = [];
  const head = [];
  for (let i = 0; i < pairs; i++) {
    const kills = run.pairs[Math.floor(r() * run.pairs.length)];
    const t0 = Date.parse('2026-11-28T16:00:00Z') + i * 120_000;
    const sides = kills
      .map((k) => (r() < 0.5 ? [k[1], k[0]] : k))
      .map(([b, h]) => (h[1] > 0 && r() < baseMisses ? [[0, 0, 0], h] : [b, h]));
    const action = ([exposureMs, heldUp, stallMs], k, f) => ({
      at: k * 5.2,
      type: 'pod-killed',
      errors: 0,
      // Rounded at random, so a kill that held up 1 request holds up 1.3 on average, not 1.
      heldUp: f === 1 ? heldUp : Math.floor(heldUp * f + r()),
      exposureMs: Math.round(exposureMs * f),
      stallMs: stallMs ? Math.round(stallMs + exposureMs * (f - 1)) : 0,
      hangMs: 0,
    });
    const run1 = (side, f, p99) => ({
      ...simRep({
        source: `recorded-${run.run}#${i + 1}${side}`,
        percentiles: { p50: p99 / 4, p90: p99 / 2, p99, 'p99.9': p99 * 3, 'p99.99': p99 * 6, max: p99 * 10 },
        intervals: {},
        requests: 11_250,
        errors: { total: 0, byClass: {} },
        pair: i + 1,
        t: t0,
        side,
        faults: true,
      }),
      faultCost: {
        actions: kills.length,
        perAction: sides.map((k, j) => action(k[side === 'a' ? 0 : 1], j, f)),
        perActionCutMs: AGGREGATE_LIMITS.lagMs,
      },
    });
    base.push(run1('a', 1, 40));
    head.push(run1('b', factor, 40 * Math.exp(0.16 * normal())));
  }
  return { cell: 'recorded/default/pod-kill', base, head };
}
