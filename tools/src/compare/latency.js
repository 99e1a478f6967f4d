// Is a latency quantile worse in head than in base, beyond noise?
//
// The unit of variation is the run: a run's quantile moves with the machine's state
// (run-to-run noise) and with the samples it happened to draw (within-run sampling
// error, known from the histogram's order statistics). We work on log-quantiles, so a
// change is a ratio.
// - Paired runs (base and head interleaved): d_i = log(head_i / base_i) per pair;
//   what a pair shares cancels. Paired t on the mean of d.
// - Concurrent pairs (a duet: both sides in one run, meta.ab): the same test, but their
//   noise is moderated apart and its assumed level is the duet's own (`assumedDuetCv`):
//   a duet's ratio shares most of what makes runs differ, and the interleaved prior would
//   take most of its power with 3 pairs.
// - Independent runs (baseline mode): difference of mean log-quantiles, pooled variance.
// The variance of one observation is the largest of: its own spread (moderated across
// the cells of the comparison, noise.js), the within-run sampling variance, and —
// when no spread can be estimated — the assumed run-to-run variance (`assumedRunCv`).
import { ruleNumbers } from '../config/normalise.js';
import { samplesNeeded } from '../result/quantiles.js';
import { moderate } from './noise.js';
import { median } from '../numbers.js';
import { mean, variance } from './stats.js';
import { figureProblems } from './whole-evidence.js';

/** Floor in ms for a rule: its duration, or for "auto" twice the timer and histogram resolution. */
export function floorMs(rule, baseMs) {
  return ruleNumbers(rule).floorMs ?? Math.max(0.02, 2 * 0.001 * (baseMs ?? 0));
}

/** The assumed run-to-run sd of a log-quantile for a coefficient of variation (log-normal). */
export function sdOfLog(cv) {
  return Math.sqrt(Math.log(1 + cv * cv));
}

// Stored intervals are 95% two-sided; ±1.96 standard errors on the log scale.
const Z95 = 1.959964;

// Where a quantile comes from: a run's latency distribution, by default. The route
// faults' propagation times are read the same way (compare/propagation.js).
export const LATENCY = Object.freeze({
  metric: (name) => name,
  field: (name) => `percentiles.${name}`,
  value: (r, name) => r.percentiles?.[name],
  interval: (r, name) => r.intervals?.[name],
  enough: (name, reps) => reps.reduce((a, r) => a + (r.requests?.total ?? 0), 0) >= samplesNeeded(name),
});

/**
 * The raw evidence one cell holds about one quantile, before any pooling; `missing` with
 * `broken` (the problems, whole-evidence.js) when a run's figure is missing, not a number or
 * out of range: no test is made of the runs that are left.
 */
export function latencyEvidence(name, base, head, pairs, source = LATENCY) {
  const q = (r) => source.value(r, name);
  const ok = (r) => typeof q(r) === 'number' && Number.isFinite(q(r)) && q(r) > 0;
  const out = {
    metric: source.metric(name),
    base: median(base.filter(ok).map(q)),
    head: median(head.filter(ok).map(q)),
    reliable: source.enough(name, base) && source.enough(name, head),
  };
  const broken = figureProblems(source, name, base, head);
  if (broken.length) return { ...out, missing: true, broken };
  if (out.base === null || out.head === null) return { ...out, missing: true };
  if (pairs) {
    const d = pairs.map((p) => Math.log(q(p.head)) - Math.log(q(p.base)));
    const duet = pairs.every((p) => p.base.meta?.ab && p.head.meta?.ab);
    return {
      ...out,
      design: duet ? 'concurrent' : 'paired',
      // A cell with faults has its own noise level: its tail is a few stalls per fault.
      faults: [...base, ...head].some((r) => (r.meta?.scenario?.faults?.length ?? 0) > 0),
      n: d.length,
      estimate: mean(d),
      ownVar: variance(d),
      ownDf: d.length - 1,
      withinVar: mean(pairs.map((p) => withinVar(p.head, name, source) + withinVar(p.base, name, source))),
      seFactor: 1 / d.length,
      // The assumed level is of one run's log-quantile (two per interleaved pair's
      // ratio) or, for a duet, of the ratio itself.
      assumedFactor: duet ? 1 : 2,
    };
  }
  const lb = base.filter(ok).map((r) => Math.log(q(r)));
  const lh = head.filter(ok).map((r) => Math.log(q(r)));
  const df = lb.length + lh.length - 2;
  return {
    ...out,
    design: 'independent',
    n: Math.min(lb.length, lh.length),
    estimate: mean(lh) - mean(lb),
    ownVar: df > 0 ? ((lb.length - 1) * variance(lb) + (lh.length - 1) * variance(lh)) / df : null,
    ownDf: df,
    withinVar: mean([...base, ...head].filter(ok).map((r) => withinVar(r, name, source))),
    seFactor: 1 / lb.length + 1 / lh.length,
    assumedFactor: 1,
  };
}

// A run's sampling variance of its log-quantile, from the order-statistic interval.
function withinVar(rep, name, source) {
  const iv = source.interval(rep, name);
  if (!iv?.low || !iv?.high) return 0;
  return ((Math.log(iv.high) - Math.log(iv.low)) / (2 * Z95)) ** 2;
}

/**
 * Evidences of one quantile across the cells of a comparison -> for each, its test's
 * {se, df, varSource}. Paired and independent designs measure different variances, so
 * each is moderated apart; a design with nothing to pool leans on `assumedRunCv`.
 */
export function latencyNoise(
  evidences,
  assumedRunCv,
  assumedDuetCv = assumedRunCv,
  assumedFaultDuetCv = assumedDuetCv,
) {
  const out = new Array(evidences.length);
  // Duet cells with faults are moderated apart from steady ones, with their own prior:
  // pooling a steady cell's small spread into a pod-kill cell would fail no-op PRs.
  const groupOf = (ev) => (ev.design === 'concurrent' && ev.faults ? 'concurrent-faults' : ev.design);
  for (const design of ['paired', 'independent', 'concurrent', 'concurrent-faults']) {
    const cv = { concurrent: assumedDuetCv, 'concurrent-faults': assumedFaultDuetCv }[design] ?? assumedRunCv;
    const assumedSd = sdOfLog(cv);
    const idx = evidences.map((ev, i) => (groupOf(ev) === design ? i : -1)).filter((i) => i >= 0);
    const noise = moderate(
      idx.map((i) => evidences[i]),
      { fallback: assumedSd ** 2 * (design === 'paired' ? 2 : 1) },
    );
    idx.forEach((i, k) => {
      out[i] = latencyTest(evidences[i], noise[k], assumedSd);
    });
  }
  return out;
}

/**
 * Evidence + moderated noise -> the test. `assumedSd` is the run-to-run sd of a
 * log-quantile assumed when no variance can be estimated (df 0): then the normal
 * distribution applies, as for a known variance.
 */
export function latencyTest(ev, noise, assumedSd) {
  const estimated = noise.var !== null && noise.df > 0;
  const perObs = Math.max(estimated ? noise.var : ev.assumedFactor * assumedSd ** 2, ev.withinVar, 1e-12);
  return {
    se: Math.sqrt(perObs * ev.seFactor),
    df: estimated ? noise.df : Infinity,
    varSource: !estimated ? 'assumed' : noise.assumedPrior ? 'own + assumed' : noise.pooledFrom ? 'moderated' : 'own',
  };
}
