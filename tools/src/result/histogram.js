// HDR histograms in integer microseconds. Two traps this module exists to avoid:
// 16-bit buckets overflow silently past 32767 counts, and recordValue truncates
// floats (1.9 µs -> 1 µs), so values are rounded here and nowhere else.
import { inflateSync } from 'node:zlib';
import * as hdr from 'hdr-histogram-js';

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

// digits: 3 for every histogram a gate reads; the per-second windows of the timeline
// (p50, p99, max of one second, drawn and never gated) use 2 — 1% resolution, a sixth of
// the cost per window when latencies span seconds.
export function newHistogram(digits = 3) {
  return hdr.build({
    bitBucketSize: 32,
    numberOfSignificantValueDigits: digits,
    autoResize: true,
    lowestDiscernibleValue: 1,
  });
}

export function recordMs(h, ms) {
  h.recordValue(Math.round(ms * 1000));
}

export function encode(h) {
  return hdr.encodeIntoCompressedBase64(h);
}

// What a legitimate histogram can be: values from 1 µs to 2^40 µs (12 days; a run is at
// most 24 h) at 1-5 significant digits. At 3 digits (ours) that is 30k counts of at most
// 9 bytes each, ~270 KB inflated; the bounds below are 4x that. A file from elsewhere is
// checked against them before anything is inflated or allocated: deflate expands up to
// 1000x, so 2 MB of base64 could otherwise become 2 GB.
export const HISTOGRAM_LIMITS = Object.freeze({
  base64Chars: 1 << 20,
  inflatedBytes: 1 << 20,
  highestTrackableValue: 2 ** 40,
  significantDigits: [1, 5],
});
const COMPRESSED_COOKIE_BASE = 0x1c849304;
const ENCODING_COOKIE_BASE = 0x1c849303;

export function decode(base64) {
  if (typeof base64 !== 'string') throw new Error('not a string');
  if (base64.length > HISTOGRAM_LIMITS.base64Chars)
    throw new Error(`longer than ${HISTOGRAM_LIMITS.base64Chars} characters`);
  const bytes = Buffer.from(base64.trim(), 'base64');
  if (bytes.length < 8 || (bytes.readInt32BE(0) & ~0xf0) !== COMPRESSED_COOKIE_BASE)
    throw new Error('no V2 compressed histogram cookie');
  const length = bytes.readInt32BE(4);
  if (length < 0 || length > bytes.length - 8) throw new Error('compressed length beyond the data');
  let inflated;
  try {
    inflated = inflateSync(bytes.subarray(8, 8 + length), { maxOutputLength: HISTOGRAM_LIMITS.inflatedBytes });
  } catch (err) {
    throw new Error(
      err.code === 'ERR_BUFFER_TOO_LARGE'
        ? `inflates beyond ${HISTOGRAM_LIMITS.inflatedBytes} bytes`
        : `does not inflate (${err.code ?? 'zlib'})`,
    );
  }
  checkHeader(inflated);
  return hdr.JsHistogram.decode(new Uint8Array(inflated), 32);
}

// The V2 header: cookie, payload length, normalizing offset, digits (4 bytes each), then
// lowest and highest trackable values (8 bytes each). They size the counts array.
function checkHeader(buf) {
  if (buf.length < 40 || (buf.readInt32BE(0) & ~0xf0) !== ENCODING_COOKIE_BASE) throw new Error('no V2 header');
  const payload = buf.readInt32BE(4);
  if (payload < 0 || payload > buf.length - 40) throw new Error('payload length beyond the data');
  const digits = buf.readInt32BE(12);
  const [minDigits, maxDigits] = HISTOGRAM_LIMITS.significantDigits;
  if (digits < minDigits || digits > maxDigits)
    throw new Error(`${digits} significant digits (${minDigits}-${maxDigits} allowed)`);
  const lowest = Number(buf.readBigInt64BE(16));
  const highest = Number(buf.readBigInt64BE(24));
  if (lowest < 1 || lowest > 1000) throw new Error(`lowest trackable value ${lowest} (1-1000 allowed)`);
  if (highest < 2 * lowest || highest > HISTOGRAM_LIMITS.highestTrackableValue)
    throw new Error(`highest trackable value beyond ${HISTOGRAM_LIMITS.highestTrackableValue} µs`);
}

export function merge(histograms) {
  const out = newHistogram();
  for (const h of histograms) out.add(h);
  return out;
}

/** Value (ms) at a quantile given in percent. */
export function valueAtMs(h, percent) {
  return h.totalCount === 0 ? null : h.getValueAtPercentile(percent) / 1000;
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
  return { count: h.totalCount, percentiles, intervals, mean: h.totalCount ? h.mean / 1000 : null };
}

// Two-sided normal quantile for common confidences; Acklam's approximation otherwise.
export function zFor(confidence) {
  return normalQuantile(1 - (1 - confidence) / 2);
}

export function normalQuantile(p) {
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239,
  ];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const lo = 0.02425;
  if (p < lo) {
    const q = Math.sqrt(-2 * Math.log(p));
    return (
      (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
      ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
    );
  }
  if (p > 1 - lo) return -normalQuantile(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) /
    (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
  );
}

/** Samples a side needs for a quantile to be gated: 10 beyond it. */
export function samplesNeeded(name) {
  return samplesFor(QUANTILES[name]);
}
