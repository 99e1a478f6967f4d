// Is a latency quantile worse in head than in base, beyond noise?
//
// Each side is a few repetitions, each with many samples. Per repetition we have the
// quantile and its order-statistic interval (within-run sampling error). Across
// repetitions we see run-to-run spread. We compare log-quantiles with Welch's t:
//   var(side) = max(between-run variance of log q, mean within-run variance of log q,
//                   assumed run-to-run variance when a side has a single repetition)
// Welch's t needs only that log q is roughly normal across runs and runs are
// independent (interleaving A B A B keeps drift out); it decides with 3 vs 3
// repetitions, where a rank test at 0.05 cannot (its smallest p is 0.1).
import { normalQuantile, zFor } from '../ingest/histogram.js';
import { mean, median, tQuantile, variance } from './stats.js';
import { round } from '../numbers.js';

export function compareQuantile(name, base, head, rule, { confidence = 0.95, assumedRunCv = 0.25 } = {}) {
  const b = sideStats(base, name, confidence, assumedRunCv);
  const h = sideStats(head, name, confidence, assumedRunCv);
  const out = {
    metric: name,
    base: b.median,
    head: h.median,
    blocking: rule.blocking,
    threshold: rule.threshold,
    floorMs: rule.floorMs,
    reliable: b.reliable && h.reliable,
  };
  if (b.median === null || h.median === null) return { ...out, status: 'missing' };
  const diff = h.logMean - b.logMean;
  const se = Math.sqrt(h.var / h.n + b.var / b.n);
  // One repetition per side: the run-to-run variance is the assumed one, a known
  // variance, so the normal quantile applies; otherwise Welch's t.
  const t = h.n < 2 && b.n < 2 ? normalQuantile(confidence) : tQuantile(confidence, welchDf(h.var, h.n, b.var, b.n));
  out.ratio = round(Math.exp(diff), 4);
  out.ratioLow = round(Math.exp(diff - t * se), 4);
  out.ratioHigh = round(Math.exp(diff + t * se), 4);
  out.deltaMs = round(h.median - b.median, 4);
  const worse = out.ratioLow > 1 && out.ratio > 1 + rule.threshold && out.deltaMs > rule.floorMs;
  const better = out.ratioHigh < 1 && out.ratio < 1 / (1 + rule.threshold) && -out.deltaMs > rule.floorMs;
  out.status = worse ? 'regression' : better ? 'improvement' : 'pass';
  // Too few samples beyond the quantile: shown, never decides alone.
  if (!out.reliable && out.status !== 'pass') out.status = `unreliable-${out.status}`;
  return out;
}

function sideStats(reps, name, confidence, assumedRunCv) {
  const z = zFor(confidence);
  const values = reps.map((r) => r.percentiles[name]).filter((v) => v !== null && v > 0);
  if (!values.length) return { median: null };
  const logs = values.map(Math.log);
  // Within-run: the interval on the log scale spans about 2z standard errors.
  const within = mean(reps.map((r) => {
    const iv = r.intervals?.[name];
    if (!iv || !iv.low || !iv.high) return 0;
    return ((Math.log(iv.high) - Math.log(iv.low)) / (2 * z)) ** 2;
  }));
  const between = variance(logs);
  const assumed = values.length < 2 ? Math.log(1 + assumedRunCv) ** 2 : 0;
  return {
    n: values.length,
    median: median(values),
    logMean: mean(logs),
    var: Math.max(between, within, assumed, 1e-12),
    reliable: reps.every((r) => r.intervals?.[name]?.reliable !== false),
  };
}

function welchDf(v1, n1, v2, n2) {
  const a = v1 / n1;
  const b = v2 / n2;
  const den = (n1 > 1 ? a * a / (n1 - 1) : 0) + (n2 > 1 ? b * b / (n2 - 1) : 0);
  return den === 0 ? 1 : Math.max(1, (a + b) ** 2 / den);
}
