import assert from 'node:assert/strict';
import { test } from 'node:test';
import { binomialUpperTail, tCdf, tQuantile } from '../../src/compare/stats.js';
import { normalQuantile } from '../../src/normal.js';

const close = (a, b, eps, what) => assert.ok(Math.abs(a - b) < eps, `${what}: ${a} vs ${b}`);

test('stats: Student t quantiles match the tables', () => {
  close(tQuantile(0.975, 4), 2.776, 1e-3, 't(0.975, 4)');
  close(tQuantile(0.95, 2), 2.92, 1e-3, 't(0.95, 2)');
  close(tQuantile(0.95, 1), 6.314, 1e-3, 't(0.95, 1)');
  close(tQuantile(0.95, 30), 1.697, 1e-3, 't(0.95, 30)');
  close(tCdf(0, 7), 0.5, 1e-9, 'symmetry');
});

test('stats: normal quantiles', () => {
  close(normalQuantile(0.975), 1.95996, 1e-4, 'z(0.975)');
  close(normalQuantile(0.95), 1.64485, 1e-4, 'z(0.95)');
});

test('stats: exact binomial upper tail', () => {
  close(binomialUpperTail(0, 10, 0.5), 1, 1e-12, 'P(X>=0)');
  close(binomialUpperTail(10, 10, 0.5), 1 / 1024, 1e-12, 'P(X>=10)');
  close(binomialUpperTail(8, 10, 0.5), 56 / 1024, 1e-12, 'P(X>=8)');
  close(binomialUpperTail(3, 1000, 0.001), 0.0802, 1e-3, 'rare events');
});

test('tail samples: 100k per side is enough for p99.99 (the nightly matrix), 99,999 is not', async () => {
  const { samplesFor } = await import('../../src/result/quantiles.js');
  const { latencyEvidence } = await import('../../src/compare/latency.js');
  assert.equal(samplesFor(99.99), 100_000);
  assert.equal(samplesFor(99), 1000);
  const reps = (n) => [
    { percentiles: { 'p99.99': 5 }, requests: { total: n / 2 } },
    { percentiles: { 'p99.99': 5 }, requests: { total: n / 2 } },
  ];
  assert.equal(latencyEvidence('p99.99', reps(100_000), reps(100_000), null).reliable, true);
  assert.equal(latencyEvidence('p99.99', reps(99_998), reps(100_000), null).reliable, false);
});
