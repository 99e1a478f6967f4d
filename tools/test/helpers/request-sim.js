// Synthetic pull requests drawn request by request: each run records its requests into a
// real HDR histogram and is summarised by the same code as a real result (quantiles and
// their order-statistic intervals), so what the gate sees at a knee — a p99 that jumps
// between the body and the slow mode, an interval that spans both — is what real runs
// give it. pr-sim.js draws the quantiles directly; this is the check on it.
//
// A request takes `bodyMs`·e^(σ_b·Z) (the fast path) or, with probability `slowShare`,
// `slowMs`·e^(σ_s·Z) (a slow mode: a GC pause, a queue behind a busy worker). The knee
// sits where the slow share crosses 1%, so p99 lives on it. Slowness comes in bursts:
// the share is drawn afresh for every slot of `slotRequests` requests (`burstSd`), and a
// duet's two sides, whose requests alternate, live through the same slots — which is why
// a duet's ratio is quieter than its two sides' own sampling error. What makes runs
// differ is the machine's state: each run scales the body, the slow mode and the slow
// share by log-normal factors (`runSd`), `shared` of whose variance is common to both
// runs of a pair (interleaved: the minutes they share; a duet: all of it).
import { newHistogram, recordMs } from '../../src/result/histogram.js';
import { summarize } from '../../src/result/quantiles.js';
import { rng } from './synthetic.js';
import { simRep } from './pr-sim.js';

export const KNEE = Object.freeze({
  bodyMs: 0.5,
  bodySigma: 0.3,
  slowMs: 1.6,
  slowSigma: 0.45,
  slowShare: 0.013,
  slotRequests: 50,
  burstSd: 1,
  // Run-to-run sd of log(scale) for body, slow mode and slow share.
  runSd: { body: 0.1, slow: 0.15, share: 0.35 },
});

export function simulateRequestPr(
  seed,
  {
    cells = 4,
    pairs = 3,
    requests = 10_000,
    shared = 0.5,
    knee = KNEE,
    errorRate = 0.002,
    effect = {},
    duet = false,
  } = {},
) {
  const r = rng(seed);
  const normal = () => Math.sqrt(-2 * Math.log(r() || 1e-12)) * Math.cos(2 * Math.PI * r());
  const out = [];
  for (let c = 0; c < cells; c++) {
    const e = effect.cell === c ? effect : {};
    const base = [];
    const head = [];
    for (let i = 0; i < pairs; i++) {
      const common = { body: normal(), slow: normal(), share: normal() };
      const machine = () => {
        const f = (k) => Math.exp(knee.runSd[k] * (Math.sqrt(shared) * common[k] + Math.sqrt(1 - shared) * normal()));
        return { body: knee.bodyMs * f('body'), slow: knee.slowMs * f('slow'), share: knee.slowShare * f('share') };
      };
      // Bursts of slowness: a duet's sides share `shared` of their log-variance (the node's
      // CPU), the rest is each side's own (its controller's GC, its worker queues).
      const commonBursts = Float64Array.from({ length: Math.ceil(requests / knee.slotRequests) }, normal);
      const bursts = () => {
        const w = duet ? Math.sqrt(shared) : 0;
        return commonBursts.map((z) =>
          Math.exp(knee.burstSd * (w * z + Math.sqrt(1 - w * w) * normal()) - knee.burstSd ** 2 / 2),
        );
      };
      const run = (isHead, order) => {
        const m = machine();
        const b = bursts();
        const scale = isHead ? (e.p99 ?? 1) : 1;
        const h = newHistogram();
        for (let k = 0; k < requests; k++) {
          const slow = r() < Math.min(0.5, m.share * b[Math.floor(k / knee.slotRequests)]);
          const ms = (slow ? m.slow : m.body) * scale;
          recordMs(h, ms * Math.exp((slow ? knee.slowSigma : knee.bodySigma) * normal()));
        }
        let errors = 0;
        const p = errorRate * (isHead ? (e.errors ?? 1) : 1);
        for (let k = 0; k < requests * p * 3; k++) if (r() < 1 / 3) errors++;
        return rep(summarize(h), { requests, errors, pair: i + 1, order, side: duet ? (isHead ? 'b' : 'a') : null });
      };
      const headFirst = i % 2 === 1;
      base.push(run(false, headFirst ? 1 : 0));
      head.push(run(true, headFirst ? 0 : 1));
    }
    out.push({ cell: `c${c}/default/s`, base, head });
  }
  return out;
}

function rep(summary, { requests, errors, pair, order, side }) {
  return simRep({
    source: `reqsim#${pair}`,
    percentiles: summary.percentiles,
    intervals: summary.intervals,
    requests,
    errors: { total: errors, byClass: { http502: errors } },
    pair,
    t: Date.parse('2026-11-23T10:00:00Z') + ((pair - 1) * 2 + order) * 60_000,
    side,
  });
}
