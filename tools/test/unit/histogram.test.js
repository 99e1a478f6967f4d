import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decode, encode, meanUs, merge, newHistogram, recordMs, valueAtMs } from '../../src/result/histogram.js';
import { quantileInterval, summarize } from '../../src/result/quantiles.js';

test('histogram: counts past 32767 in one bucket do not overflow (no 16-bit buckets)', () => {
  const h = newHistogram();
  for (let i = 0; i < 70_000; i++) recordMs(h, 1);
  assert.equal(h.totalCount, 70_000);
  assert.equal(decode(encode(h)).totalCount, 70_000);
  assert.equal(valueAtMs(h, 50), 1);
});

test('histogram: fractional microseconds are rounded, not truncated', () => {
  const h = newHistogram();
  recordMs(h, 0.0019); // 1.9 µs
  assert.equal(h.maxValue, 2);
});

test('histogram: 3 significant digits — values within 0.1%', () => {
  const h = newHistogram();
  recordMs(h, 123.456);
  const v = valueAtMs(h, 100);
  assert.ok(Math.abs(v - 123.456) / 123.456 < 0.001, `${v}`);
});

test('histogram: encode/decode and merge are exact', () => {
  const a = newHistogram();
  const b = newHistogram();
  for (let i = 1; i <= 1000; i++) recordMs(a, i / 10);
  for (let i = 1; i <= 1000; i++) recordMs(b, i);
  const both = newHistogram();
  for (let i = 1; i <= 1000; i++) recordMs(both, i / 10);
  for (let i = 1; i <= 1000; i++) recordMs(both, i);
  const m = merge([decode(encode(a)), decode(encode(b))]);
  assert.equal(m.totalCount, 2000);
  for (const q of [1, 25, 50, 75, 90, 99, 99.9, 100]) assert.equal(valueAtMs(m, q), valueAtMs(both, q), `p${q}`);
});

test('histogram: order-statistic interval covers the true quantile and narrows with n', () => {
  const small = newHistogram();
  const big = newHistogram();
  for (let i = 1; i <= 1000; i++) recordMs(small, i);
  for (let i = 1; i <= 100_000; i++) recordMs(big, i / 100);
  const ci = quantileInterval(small, 99);
  assert.ok(ci.low <= 990 && ci.high >= 990, JSON.stringify(ci));
  assert.equal(ci.reliable, true);
  const wideRel = (ci.high - ci.low) / 990;
  const ci2 = quantileInterval(big, 99);
  assert.ok((ci2.high - ci2.low) / 990 < wideRel / 3, 'interval narrows with more samples');
});

test('histogram: a tail quantile with fewer than 10 samples beyond it is unreliable', () => {
  const h = newHistogram();
  for (let i = 1; i <= 50_000; i++) recordMs(h, i / 1000);
  const s = summarize(h);
  assert.equal(s.intervals['p99.9'].reliable, true);
  assert.equal(s.intervals['p99.99'].reliable, false); // 5 samples beyond
});

test('histogram: an empty histogram has no percentiles (never 0)', () => {
  const s = summarize(newHistogram());
  assert.equal(s.count, 0);
  assert.equal(s.percentiles.p99, null);
});

// meanUs walks the counts itself (the package's mean builds a record per bucket): it must be
// the package's number, bit for bit, or summaries drift from what older results recorded.
test("histogram: meanUs is the package's mean, the same double", () => {
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (const [n, spread] of [
    [1, 1],
    [50, 5],
    [10_000, 40],
    [100_000, 10_000],
  ]) {
    const h = newHistogram();
    for (let i = 0; i < n; i++) recordMs(h, 0.05 + rand() ** 3 * spread);
    assert.equal(meanUs(h), h.mean, `${n} samples up to ${spread} ms`);
    const low = newHistogram(2);
    for (let i = 0; i < n; i++) recordMs(low, rand() * spread);
    assert.equal(meanUs(low), low.mean, `2 digits, ${n} samples`);
  }
  assert.equal(meanUs(newHistogram()), 0);
});
