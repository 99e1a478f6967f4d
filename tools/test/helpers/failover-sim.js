// Synthetic duet PRs with pod kills like haproxy-ingress's on kind (seeded): per kill,
// each side on its own stalls with probability q for its stall time (5 s: `timeout
// connect`, a connect that reached the dead pod's address) times a small log-normal
// jitter, else its requests answer in ~20 ms (no request of a second or more). Each run's
// kills go through the real path (events + slow requests → ingest/fault-cost.js), so the
// gate reads per-kill costs as it reads them from a kind run. A PR is a steady cell and a
// pod-kill cell, `pairs` duet pairs each; p99 moves by the duet's own noise (sd of the
// log pair ratio: 0.12 steady, 0.16 pod-kill, init-prs.js on haproxy-ingress) and not
// with the failover, which p99 does not see.
import { faultCost } from '../../src/ingest/fault-cost.js';
import { simRep } from './pr-sim.js';
import { rng } from './synthetic.js';

export const KILLS = Object.freeze({ q: 0.6, stallMs: 5000, jitterSd: 0.05, kills: 8, everyMs: 5000 });

export function simulateFailoverPr(
  seed,
  {
    pairs = 3,
    q = KILLS.q,
    stallMs = KILLS.stallMs,
    headStallMs = stallMs,
    jitterSd = KILLS.jitterSd,
    kills = KILLS.kills,
    pairOffset = 0,
  } = {},
) {
  const r = rng(seed);
  const normal = () => Math.sqrt(-2 * Math.log(r() || 1e-12)) * Math.cos(2 * Math.PI * r());
  const cell = (name, sdLog, faults) => {
    const base = [];
    const head = [];
    for (let i = 0; i < pairs; i++) {
      const pair = pairOffset + i + 1;
      const t0 = Date.parse('2026-11-27T10:00:00Z') + pair * 120_000;
      const events = faults
        ? Array.from({ length: kills }, (_, k) => ({ type: 'pod-killed', ts: t0 + (k + 1) * KILLS.everyMs }))
        : [];
      const ratio = Math.exp(sdLog * normal());
      const run = (side, ms, p99) => {
        // A stalled side's slowest request: sent as the kill lands, answered T·jitter later.
        const slow = events
          .filter(() => r() < q)
          .map((e) => {
            const wait = ms * Math.exp(jitterSd * normal());
            return { end: e.ts + 1 + wait, ms: wait };
          });
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
        return faults ? { ...rep, events, faultCost: faultCost(events, slow, 0, []) } : rep;
      };
      const p99 = faults ? 40 : 4;
      base.push(run('a', stallMs, p99));
      head.push(run('b', headStallMs, p99 * ratio));
    }
    return { cell: `haproxy-ingress/default/${name}`, base, head };
  };
  return [cell('steady', 0.12, false), cell('pod-kill', 0.16, true)];
}
