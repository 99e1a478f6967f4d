// Synthetic duet PRs with pod kills like haproxy-ingress's on kind (seeded), calibrated on
// init-prs.js's A/A pod-kill runs of 2026-11-27 (9 runs, 74 kills, 250 req/s a side, a
// kill every ~5.3 s; the stall: the kill → the end of the last ≥ 100 ms request it held
// up). Per kill, each side on its own stalls with probability q (real: 68 of 74 kills
// stalled both, q ≈ 0.96). The kill's stall is log-normal between kills (real: median
// 2.1 s, sd of the log 0.9 — a 300 ms kill beside a 3 s one in one run), and the two
// sides of one kill track it: most kills within a few percent (median |log ratio| 0.02,
// 72% within 0.2; here sd 0.15 per kill), while about 1 kill in 6 stalls one
// side ×2–×8 (real: 11 of 68, |log ratio| 0.65–2.06 — a 5 s `timeout connect` on one
// side beside a bump on the other), modelled as one random side ×e^U(0.7, 2.1).
// Each stalled side is a bump of 100–500 ms requests sent within 2.5 s of the kill
// (real: all within 3 s), its last one ending at the stall. Each run's kills go through
// the real path (events + requests ≥ 100 ms → ingest/fault-cost.js, as aggregate.js
// keeps them), so the gate reads per-kill costs as it reads them from a kind run. A PR is
// a steady cell and a pod-kill cell, `pairs` duet pairs each; p99 moves by the duet's own
// noise (sd of the log pair ratio: 0.12 steady, 0.16 pod-kill) and not with the
// failover, which p99 does not see.
import { AGGREGATE_LIMITS } from '../../src/ingest/aggregate.js';
import { faultCost } from '../../src/ingest/fault-cost.js';
import { simRep } from './pr-sim.js';
import { rng } from './synthetic.js';

export const KILLS = Object.freeze({
  q: 0.96,
  medianMs: 2000,
  spreadSd: 0.9,
  pairSd: 0.15,
  outlier: 1 / 6,
  outlierLog: [0.7, 2.1],
  kills: 8,
  everyMs: 5000,
});

// headFactor: the head's stall over the base's on every kill (the canary's failover).
export function simulateFailoverPr(seed, opts = {}) {
  const o = { ...KILLS, pairs: 3, headFactor: 1, pairOffset: 0, ...opts };
  const r = rng(seed);
  const normal = () => Math.sqrt(-2 * Math.log(r() || 1e-12)) * Math.cos(2 * Math.PI * r());
  const cut = AGGREGATE_LIMITS.lagMs;
  // One side's requests of the cut or more at a kill that stalled it for `stall` ms.
  const bump = (ts, stall) => {
    if (stall < cut) return [];
    const out = [];
    for (let i = 0; i < 3; i++) {
      const ms = cut + 400 * r();
      const sent = r() * Math.max(0, Math.min(stall, 2500) - ms);
      if (sent + ms < stall) out.push({ end: ts + sent + ms, ms });
    }
    const sent = r() * Math.min(stall - cut, 2500);
    out.push({ end: ts + stall, ms: stall - sent });
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
        for (const side of ['a', 'b']) {
          if (r() >= o.q) continue;
          const stall =
            level *
            Math.exp((o.pairSd / Math.SQRT2) * normal()) *
            (side === 'b' ? o.headFactor : 1) *
            (odd === side ? jump : 1);
          lag[side].push(...bump(e.ts, stall));
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
      head.push(run('b', p99 * ratio));
    }
    return { cell: `haproxy-ingress/default/${name}`, base, head };
  };
  return [cell('steady', 0.12, false), cell('pod-kill', 0.16, true)];
}
