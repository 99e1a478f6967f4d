// Synthetic pull requests with this machine's noise, for measuring the gate's
// per-PR error rates by simulation (seeded: the same numbers every time).
//
// A PR is `cells` cells × `pairs` interleaved base/head pairs. A run's log-quantile
// = cell level + pair component (shared by the two runs of a pair: the machine's
// state in those minutes) + run component; its sd is `sdLog` in all, `shared` of the
// variance in the pair component. Within-run sampling error is part of the run
// component and is what the run's order-statistic interval reports. Error counts
// are Poisson with a per-run rate that itself varies (`errorCv`, gamma): overdispersed.
import { rng } from './synthetic.js';

export const MACHINE = Object.freeze({ sdLog: 0.22, shared: 0.5, withinSd: 0.08, errorCv: 0.3 });

export function simulatePr(
  seed,
  {
    cells = 4,
    pairs = 3,
    requests = 10_000,
    p99Ms = 1.2,
    p9999Ms = 6,
    sdLog = MACHINE.sdLog,
    shared = MACHINE.shared,
    withinSd = MACHINE.withinSd,
    errorRate = 0.002,
    timeoutRate = 0.00005,
    errorCv = MACHINE.errorCv,
    sdByCell = null,
    effect = {},
    // A duet's pairs (both sides in one run): tagged as such (meta.ab) for the gate.
    duet = false,
    // Cells whose scenario has faults (pod-kill): tagged as such for the gate.
    faultCells = [],
    // k6 dropping iterations in a share of a duet's pairs — one k6, so both sides alike
    // (kind, 2 cores: 7 of 8 pod-kill pairs, 0.15-1.32%).
    drops = null,
  } = {},
) {
  const r = rng(seed);
  const normal = () => Math.sqrt(-2 * Math.log(r() || 1e-12)) * Math.cos(2 * Math.PI * r());
  const gamma = (shape) => gammaSample(shape, r, normal);
  const poisson = (lambda) => poissonSample(lambda, r, normal);
  const out = [];
  for (let c = 0; c < cells; c++) {
    const sd = sdByCell?.[c] ?? sdLog;
    const e = effect.cell === c ? effect : {};
    const base = [];
    const head = [];
    for (let i = 0; i < pairs; i++) {
      const pairNoise = Math.sqrt(shared) * sd * normal();
      const dropRatio = drops && r() < drops.share ? drops.ratio[0] + r() * (drops.ratio[1] - drops.ratio[0]) : 0;
      const run = (isHead, order) => {
        const noise = pairNoise + Math.sqrt(1 - shared) * sd * normal();
        const p99 = p99Ms * Math.exp(noise) * (isHead ? (e.p99 ?? 1) : 1);
        const tail = p9999Ms * Math.exp(noise + 0.3 * normal()) * (isHead ? (e.p9999 ?? 1) : 1);
        const rate = (x) => (errorCv > 0 ? x * gamma(1 / errorCv ** 2) * errorCv ** 2 : x);
        const k502 = poisson(requests * rate(errorRate) * (isHead ? (e.errors ?? 1) : 1));
        const kTimeout = poisson(requests * rate(timeoutRate));
        return rep({
          p99,
          tail,
          k502,
          kTimeout,
          requests,
          withinSd,
          pair: i + 1,
          order,
          side: duet ? (isHead ? 'b' : 'a') : null,
          t: Date.parse('2026-11-23T10:00:00Z') + (i * 2 + order) * 60_000,
          faults: faultCells.includes(c),
          dropped: Math.round(requests * dropRatio),
        });
      };
      const headFirst = i % 2 === 1; // A B, B A, A B: drift within a pair cancels over pairs
      base.push(run(false, headFirst ? 1 : 0));
      head.push(run(true, headFirst ? 0 : 1));
    }
    out.push({ cell: `c${c}/default/s`, base, head });
  }
  return out;
}

function rep({ p99, tail, k502, kTimeout, requests, withinSd, pair, t, side, faults, dropped }) {
  const iv = (v, sd) => ({ low: v * Math.exp(-1.96 * sd), high: v * Math.exp(1.96 * sd), reliable: true });
  return simRep({
    source: `sim#${pair}`,
    percentiles: { p50: p99 / 3, p90: p99 / 1.6, p99, 'p99.9': tail / 2, 'p99.99': tail, max: tail * 1.5 },
    intervals: {
      p50: iv(p99 / 3, 0.02),
      p90: iv(p99 / 1.6, 0.03),
      p99: iv(p99, withinSd),
      'p99.9': iv(tail / 2, 0.2),
      'p99.99': { ...iv(tail, 0.5), reliable: requests * 1e-4 >= 10 },
    },
    requests,
    errors: { total: k502 + kTimeout, byClass: { http502: k502, timeout: kTimeout } },
    pair,
    t,
    side,
    faults,
    dropped,
  });
}

/** A simulated run as the gate reads one: its quantiles, intervals and errors, full load,
 *  one machine; `side` (a|b) marks a duet's pair. Shared with request-sim.js. */
export function simRep({
  source,
  percentiles,
  intervals,
  requests,
  errors,
  pair,
  t,
  side,
  faults = false,
  dropped = 0,
}) {
  return {
    source,
    percentiles,
    intervals,
    requests: { total: requests },
    errors,
    load: {
      targetRate: 500,
      achievedRate: 500,
      achievedRatio: 1,
      droppedIterations: dropped,
      droppedRatio: dropped / (requests + dropped),
      k6ExitCode: 0,
    },
    meta: {
      profile: 'local',
      machine: { fingerprint: 'sim' },
      // Every run names its load engine (compare/engine-of-record.js): k6's version.
      k6: 'v1.4.0',
      pair,
      startedAt: new Date(t).toISOString(),
      scenario: { vus: 50, ...(faults ? { faults: [{ type: 'pod-kill' }] } : {}) },
      ...(side ? { ab: { side } } : {}),
    },
  };
}

// Marsaglia–Tsang gamma (shape >= 1) and a Poisson by inversion / normal approximation.
function gammaSample(shape, r, normal) {
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    const x = normal();
    const v = (1 + c * x) ** 3;
    if (v > 0 && Math.log(r() || 1e-12) < 0.5 * x * x + d - d * v + d * Math.log(v)) return d * v;
  }
}

function poissonSample(lambda, r, normal) {
  if (lambda > 60) return Math.max(0, Math.round(lambda + Math.sqrt(lambda) * normal()));
  const l = Math.exp(-lambda);
  let k = 0;
  let p = 1;
  do {
    k++;
    p *= r();
  } while (p > l);
  return k - 1;
}
