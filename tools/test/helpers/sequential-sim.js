// Sequential duet PRs, pair by pair: each pair's p99 log ratio ~ N(log r, σ²), the real
// interim rule (compare/sequential.js) deciding before each optional pair as the runner
// does, and the real gate (gateCells, paired) judging what ran. Seeded.
import { gateCells } from '../../src/compare/gate.js';
import { interimLook } from '../../src/compare/sequential.js';
import { simRep } from './pr-sim.js';
import { rng } from './synthetic.js';

const REQUESTS = 13_500; // 45 s at 300/s per side

/**
 * One pair of a duet cell as the gate reads it: base and head p99 with the pair's log
 * ratio `d`; `errors`: [base, head] 502 counts; `sequential`: the meta the runner records.
 */
export function duetPair({ pair, d, baseP99 = 1.2, errors = [0, 0], faults = false, sequential = null, withinSd }) {
  const t = Date.parse('2026-11-30T10:00:00Z') + pair * 60_000;
  const side = (p99, k502, ab) => {
    const iv = (v, sd) => ({ low: v * Math.exp(-1.96 * sd), high: v * Math.exp(1.96 * sd), reliable: true });
    const r = simRep({
      source: `seq#${pair}${ab}`,
      percentiles: { p50: p99 / 3, p90: p99 / 1.6, p99, 'p99.9': p99 * 2, 'p99.99': p99 * 4, max: p99 * 6 },
      intervals: {
        p50: iv(p99 / 3, 0.02),
        p90: iv(p99 / 1.6, 0.02),
        p99: iv(p99, withinSd),
        'p99.9': iv(p99 * 2, 0.1),
        'p99.99': { ...iv(p99 * 4, 0.4), reliable: false },
      },
      requests: REQUESTS,
      errors: { total: k502, byClass: { http502: k502 } },
      pair,
      t,
      side: ab,
      faults,
    });
    // The runner numbers a duet's repetitions by pair (sequential-gate.js reads the last).
    if (sequential) Object.assign(r.meta, { sequential, repetition: pair });
    return r;
  };
  return { base: side(baseP99, errors[0], 'a'), head: side(baseP99 * Math.exp(d), errors[1], 'b') };
}

/**
 * cells: [{ sd, ratio, faults, errorsPerRun }]; design: { minPairs, maxPairs } (maxPairs ===
 * minPairs: the fixed design). -> { failed: [cell], pairs: [n per cell], verdict }
 */
export function sequentialPr(
  seed,
  gate,
  { cells, minPairs = 3, maxPairs = minPairs, futility = true, family = cells.length },
) {
  const sequential = maxPairs > minPairs ? { minPairs, maxPairs } : null;
  const inputs = cells.map((c, i) => {
    // Each cell its own stream: the same PR draws the same pairs whatever the rule stops.
    const r = rng(seed + 104_729 * i);
    const normal = () => Math.sqrt(-2 * Math.log(r() || 1e-12)) * Math.cos(2 * Math.PI * r());
    // Errors per run: Poisson with a log-normally varying rate (bursts around each kill).
    const count = (mean) => {
      if (!mean) return 0;
      const lambda = mean * Math.exp(0.3 * normal() - 0.045);
      let k = 0;
      for (let p = r(); p > Math.exp(-lambda); p *= r()) k++;
      return k;
    };
    const base = [];
    const head = [];
    const add = () => {
      const d = Math.log(c.ratio ?? 1) + c.sd * normal();
      const p = duetPair({
        pair: base.length + 1,
        d,
        faults: Boolean(c.faults),
        errors: [count(c.errorsPerRun), count(c.errorsPerRun)],
        sequential,
        withinSd: c.withinSd ?? 0.03,
      });
      base.push(p.base);
      head.push(p.head);
    };
    for (let n = 0; n < minPairs; n++) add();
    while (base.length < maxPairs) {
      if (interimLook({ base, head }, gate, { family, futility }).decision !== 'continue') break;
      add();
    }
    return { cell: `c${i}/default/s`, base, head };
  });
  const verdict = gateCells(inputs, gate, { mode: 'paired' });
  return {
    verdict,
    failed: verdict.cells.filter((c) => c.verdict === 'regression').map((c) => c.cell),
    pairs: inputs.map((c) => c.base.length),
  };
}

/** Rates over n seeded PRs: failed (any cell), caught (cell 0 red), mean pairs per cell. */
export function sequentialRates(n, gate, opts) {
  let failed = 0;
  let caught = 0;
  let rounds = 0;
  const pairs = opts.cells.map(() => 0);
  for (let s = 1; s <= n; s++) {
    const v = sequentialPr(s * 7919 + 17, gate, opts);
    if (v.failed.length) failed++;
    if (v.failed.includes('c0/default/s')) caught++;
    if (v.verdict.confirm.length) rounds++;
    v.pairs.forEach((k, i) => (pairs[i] += k));
  }
  return { failed: failed / n, caught: caught / n, rounds: rounds / n, pairs: pairs.map((k) => k / n) };
}
