// HDR histograms in integer microseconds, the codec: build, record, encode, decode within
// bounds, merge, read a value. What a histogram's quantiles say (intervals, the tail rule)
// is result/quantiles.js. Two traps this module exists to avoid: 16-bit buckets overflow
// silently past 32767 counts, and recordValue truncates floats (1.9 µs -> 1 µs), so
// values are rounded here and nowhere else.
import { createRequire } from 'node:module';
import { inflateSync } from 'node:zlib';

// The package's index also loads its WebAssembly build, a log writer that sets up an
// Intl number format as it loads, and more: ~55 ms of every `tailgate ingest`, against ~25
// for the two files used here (the 32-bit histogram; the V2 codec, which adds encode and
// decode to every JsHistogram).
const require = createRequire(import.meta.url);
const { default: Int32Histogram } = require('hdr-histogram-js/dist/Int32Histogram.js');
const { JsHistogram } = require('hdr-histogram-js/dist/JsHistogram.js');
require('hdr-histogram-js/dist/JsHistogram.encoding.js');

// digits: 3 for every histogram a gate reads; the per-second windows of the timeline
// (p50, p99, max of one second, drawn and never gated) use 2 — 1% resolution, a sixth of
// the cost per window when latencies span seconds.
// What the package's build({bitBucketSize: 32, autoResize: true, lowestDiscernibleValue: 1})
// makes: its default highest trackable value is 2, grown as values arrive.
export function newHistogram(digits = 3) {
  const h = new Int32Histogram(1, 2, digits);
  h.autoResize = true;
  return h;
}

export function recordMs(h, ms) {
  h.recordValue(Math.round(ms * 1000));
}

export function encode(h) {
  return h.encodeIntoCompressedBase64();
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
  return JsHistogram.decode(new Uint8Array(inflated), 32);
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

/** The package's `mean` (µs): the same sum in the same order, so the same double. Its own
 *  walks a recorded-values iterator that builds a record per bucket, ~25 ms a summary
 *  at 100k requests. */
export function meanUs(h) {
  const n = h.totalCount;
  if (n === 0) return 0;
  let total = 0;
  let seen = 0;
  for (let i = 0; i < h.countsArrayLength && seen < n; i++) {
    const count = h.getCountAtIndex(i);
    if (count === 0) continue;
    seen += count;
    // The iterator stands at value 0 for index 0, at valueFromIndex(i) after.
    total += h.medianEquivalentValue(h.highestEquivalentValue(i === 0 ? 0 : h.valueFromIndex(i))) * count;
  }
  return total / n;
}

/** Value (ms) at a quantile given in percent. */
export function valueAtMs(h, percent) {
  return h.totalCount === 0 ? null : h.getValueAtPercentile(percent) / 1000;
}
