// "Is the candidate no worse than what we run today?" — a migration question, and a
// regression test that does not fire is no evidence of equivalence. Non-inferiority
// turns the hypotheses around: H0 "the candidate is worse by the margin or more"
// (ratio ≥ 1 + margin); rejecting it, Holm over every test of the comparison, is the
// evidence for "no worse". The same evidence, pairing and moderated noise as the gate
// (latency.js, errors.js, noise.js); runs of `from` and of the candidate interleaved or
// concurrent on one machine.
//
// Verdict per cell and metric:
//   no-worse      H0 rejected (the upper end of the interval is below 1 + margin)
//   worse         the ratio is above 1 + margin beyond noise (the mirror test)
//   inconclusive  neither: the interval spans the margin; `pairsNeeded` says how many
//                 pairs would decide if the ratio is what it looks like
import { parsePercent } from '../units.js';
import { normalQuantile } from '../normal.js';
import { ERROR_GROUPS, errorEvidence } from './errors.js';
import { latencyEvidence, latencyNoise } from './latency.js';
import { matchPairs } from './pairs.js';
import { holm, tQuantileOrNormal, tSf } from './stats.js';
import { pValue, round } from '../numbers.js';

export const DEFAULT_MARGINS = Object.freeze({ p99: '10%', 'p99.99': '25%', errors: '10%' });

/**
 * inputs: [{ cell, base: reps of `from`, head: reps of the candidate }] ->
 * { cells: [{ cell, verdict, metrics: [...] }], alpha }
 */
export function nonInferiority(inputs, gate, { margins = DEFAULT_MARGINS, mode = 'paired' } = {}) {
  const alpha = 1 - gate.confidence;
  const live = inputs.map((c) => ({ ...c, pairs: mode === 'paired' ? matchPairs(c.base, c.head).pairs : null }));
  const tests = [];
  for (const [metric, margin] of Object.entries(margins)) {
    const m = Math.log(1 + parsePercent(margin));
    if (metric === 'errors') {
      for (const c of live) tests.push(errorTestNi(c, m, margin));
      continue;
    }
    const evs = live
      .map((c) => ({ c, ev: latencyEvidence(metric, c.base, c.head, c.pairs) }))
      .filter((e) => !e.ev.missing && e.ev.reliable);
    latencyNoise(
      evs.map((e) => e.ev),
      gate.assumedRunCv,
      gate.assumedDuetCv,
      gate.assumedFaultDuetCv,
    ).forEach(({ se, df }, i) => {
      const { c, ev } = evs[i];
      tests.push({ cell: c.cell, metric, margin, est: ev.estimate, se, df, n: ev.n, base: ev.base, head: ev.head, m });
    });
  }
  for (const t of tests) {
    t.pNoWorse = t.noErrors ? 0 : tSf((t.m - t.est) / t.se, t.df); // H0: est ≥ m
    t.pWorse = t.noErrors ? 1 : tSf((t.est - t.m) / t.se, t.df); // H0: est ≤ m
  }
  holm(tests.map((t) => t.pNoWorse)).forEach((p, i) => {
    tests[i].adjNoWorse = p;
  });
  holm(tests.map((t) => t.pWorse)).forEach((p, i) => {
    tests[i].adjWorse = p;
  });
  const cells = inputs.map(({ cell }) => {
    const metrics = tests.filter((t) => t.cell === cell).map((t) => describe(t, alpha));
    const verdict = metrics.some((x) => x.verdict === 'worse')
      ? 'worse'
      : metrics.length && metrics.every((x) => x.verdict === 'no-worse')
        ? 'no-worse'
        : 'inconclusive';
    return { cell, verdict, metrics };
  });
  return { alpha, margins, cells };
}

// Errors: the rate ratio of the candidate to `from`, log scale, quasi-Poisson
// dispersion from the runs (at least 1), 0.5 added to each count so that a side with
// none still has a finite ratio.
function errorTestNi(c, m, margin) {
  const groups = Object.keys(ERROR_GROUPS).map((g) => errorEvidence(g, c.base, c.head));
  const kb = groups.reduce((a, g) => a + g.base, 0);
  const kh = groups.reduce((a, g) => a + g.head, 0);
  const nb = groups[0].baseRequests;
  const nh = groups[0].headRequests;
  const phis = groups.filter((g) => g.ownDf > 0 && g.ownVar !== null);
  const phi = Math.max(
    1,
    phis.length ? phis.reduce((a, g) => a + g.ownVar * g.ownDf, 0) / phis.reduce((a, g) => a + g.ownDf, 0) : 1,
  );
  const df = phis.reduce((a, g) => a + g.ownDf, 0) || Infinity;
  const est = Math.log((kh + 0.5) / nh) - Math.log((kb + 0.5) / nb);
  const se = Math.sqrt(phi * (1 / (kh + 0.5) + 1 / (kb + 0.5)));
  // A candidate without a single error is no worse in errors, whatever `from` did: no
  // ratio test is needed (and none could show it when both sides have none).
  return {
    cell: c.cell,
    metric: 'errors',
    margin,
    est,
    se,
    df,
    n: c.head.length,
    base: kb,
    head: kh,
    m,
    noErrors: kh === 0,
  };
}

// The interval shown is the one the decision used: at the level Holm gave this test
// (α·p/adjusted p — α/(k tests) for the smallest p), so its upper end is below 1 + margin
// exactly when the verdict is no-worse. An interval at the unadjusted level could lie
// wholly below the margin and still be inconclusive.
function describe(t, alpha) {
  const level = t.adjNoWorse > 0 && t.pNoWorse > 0 ? (alpha * t.pNoWorse) / t.adjNoWorse : alpha;
  const q = tQuantileOrNormal(1 - level, t.df);
  const verdict = t.adjNoWorse <= alpha ? 'no-worse' : t.adjWorse <= alpha ? 'worse' : 'inconclusive';
  const out = {
    metric: t.metric,
    margin: t.margin,
    base: t.base,
    head: t.head,
    verdict,
    ratio: round(Math.exp(t.est), 4),
    upper: round(Math.exp(t.est + q * t.se), 4),
    lower: round(Math.exp(t.est - q * t.se), 4),
    intervalLevel: round(1 - 2 * level, 4),
    holmAdjusted: level < alpha,
    pNoWorse: pValue(t.pNoWorse),
    adjustedPNoWorse: pValue(t.adjNoWorse),
  };
  // If the ratio is what it looks like: pairs for the interval to clear the margin.
  if (verdict === 'inconclusive' && t.est < t.m && !t.noErrors) {
    const need = ((q + normalQuantile(0.8)) * t.se * Math.sqrt(t.n)) / (t.m - t.est);
    out.pairsNeeded = Math.ceil(need * need);
  }
  return out;
}
