// What a latency histogram says about its quantiles: the ones a result names, each with a
// distribution-free interval, and the tail rule — how many samples a quantile needs
// before a gate may rest on it (config checks a scenario can reach it, compare applies it).
import { zFor } from '../normal.js';
import { meanUs, valueAtMs } from './histogram.js';

export const QUANTILES = Object.freeze({
  p50: 50,
  p90: 90,
  p99: 99,
  'p99.9': 99.9,
  'p99.99': 99.99,
  'p99.999': 99.999,
});
// A quantile needs this many samples beyond it before its interval is narrow
// enough to gate on (p99.99 -> 100k samples).
export const MIN_TAIL_SAMPLES = 10;

/**
 * Samples needed for a quantile (in percent) to have MIN_TAIL_SAMPLES beyond it:
 * p99 1000, p99.99 100000. Integer arithmetic after one rounding, so 100000 samples
 * count as enough for p99.99 (1 − 0.9999 is not exactly 1e-4 in floating point).
 */
export function samplesFor(percent) {
  return Math.ceil(MIN_TAIL_SAMPLES / (1 - percent / 100) - 1e-6);
}

/** Samples a side needs for a quantile to be gated: 10 beyond it. */
export function samplesNeeded(name) {
  return samplesFor(QUANTILES[name]);
}

/**
 * Distribution-free confidence interval of a quantile from order statistics: the
 * rank of the q-quantile among n samples is Binomial(n, q), so the values at ranks
 * nq ± z·sqrt(nq(1-q)) bound it with the given confidence (normal approximation to
 * the binomial, fine once n(1-q) >= 10, which is also the `reliable` rule).
 */
export function quantileInterval(h, percent, confidence = 0.95) {
  const n = h.totalCount;
  if (n === 0) return { low: null, high: null, reliable: false, tailSamples: 0 };
  const q = percent / 100;
  const z = zFor(confidence);
  const sd = Math.sqrt(n * q * (1 - q));
  const loRank = Math.max(1, Math.floor(n * q - z * sd));
  const hiRank = Math.min(n, Math.ceil(n * q + z * sd) + 1);
  const tailSamples = n * (1 - q);
  return {
    low: h.getValueAtPercentile((100 * loRank) / n) / 1000,
    high: h.getValueAtPercentile((100 * hiRank) / n) / 1000,
    reliable: n >= samplesFor(percent),
    tailSamples: Math.floor(tailSamples),
  };
}

export function summarize(h, confidence = 0.95) {
  const percentiles = {};
  const intervals = {};
  for (const [name, pct] of Object.entries(QUANTILES)) {
    percentiles[name] = valueAtMs(h, pct);
    intervals[name] = quantileInterval(h, pct, confidence);
  }
  // The highest equivalent value, as every other quantile and the .hgrm export report it
  // (the raw maximum can sit below p99.99's bucket bound).
  percentiles.max = h.totalCount ? h.getValueAtPercentile(100) / 1000 : null;
  return { count: h.totalCount, percentiles, intervals, mean: h.totalCount ? meanUs(h) / 1000 : null };
}
