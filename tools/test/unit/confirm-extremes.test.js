// A confirmation round that shows a change beyond doubt must fail the PR. Measured on kind
// (make perf, kind-routes: a head whose second Service answers 2% with 503): 5xx 0 → 135
// over 3 pairs was a candidate (its dispersion, estimated from 3 runs, leaves p = 0.008);
// the fresh pairs showed 0 → 127 (p = 6e-39), and the combined p-value came out NaN — no
// test rejects on NaN, so the PR passed. Φ⁻¹(1 − p) is Infinity once 1 − p rounds to 1.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stagewise, zOf } from '../../src/compare/confirm.js';
import { failClosed, gateCells } from '../../src/compare/gate.js';
import { applyDefaults } from '../../src/config/defaults.js';
import { simRep } from '../helpers/pr-sim.js';

const gate = applyDefaults({ controllers: {}, scenarios: {}, matrices: {} }).gate;

// A duet pair's run of a route cell with `n503` 503s (and `dropped` iterations k6 dropped).
const rep = (pair, n503, dropped = 0) =>
  simRep({
    source: `r${pair}`,
    percentiles: { p50: 1, p90: 2, p99: 4, 'p99.9': 6, 'p99.99': 8, max: 10 },
    intervals: {},
    requests: 5000,
    errors: { total: n503, byClass: { http503: n503 } },
    pair,
    t: Date.parse('2026-11-26T10:00:00Z') + pair * 60_000,
    side: 'a',
    faults: true,
    dropped,
  });
/** Runs from pair `from` on, one per count; `dropped[i]`: iterations run i dropped. */
const side = (counts, from, dropped = []) => counts.map((k, i) => rep(from + i, k, dropped[i] ?? 0));

test('zOf is finite and monotone down to p = 1e-300 and up to p = 1', () => {
  const ps = [1, 0.5, 0.05, 1e-10, 1e-17, 1e-39, 1e-300, 0];
  const zs = ps.map(zOf);
  assert.ok(zs.every(Number.isFinite), zs.join(', '));
  for (let i = 1; i < zs.length; i++) assert.ok(zs[i] >= zs[i - 1], `${ps[i]}: ${zs[i]} < ${zs[i - 1]}`);
  assert.ok(Math.abs(zOf(0.05) - 1.6449) < 1e-3);
  const s = stagewise(0.01, 0.05, { pWorse: 6e-39 });
  assert.ok(Number.isFinite(s.overallP) && s.overallP <= 0.05, String(s.overallP));
});

test('a candidate whose fresh runs show it beyond doubt fails the PR (5xx 0 → 135, confirmed 0 → 127, runs alike: p = 0.5^127)', () => {
  const cell = 'traefik/default/routes-alt-errors';
  const first = { cell, base: side([0, 0, 0], 1), head: side([43, 56, 36], 1) };
  const once = gateCells([first], gate, { mode: 'paired' });
  assert.deepEqual(
    once.confirm.map((c) => c.metrics),
    [['errors:5xx']],
    'a candidate at the first look',
  );
  const fresh = { base: side([0, 0, 0], 101), head: side([41, 44, 42], 101) };
  const v = gateCells([first], gate, { mode: 'paired', confirm: new Map([[cell, fresh]]) });
  assert.equal(v.cells[0].verdict, 'regression', JSON.stringify(v.cells[0].reasons));
});

test('a blocking test whose p-value is not a number makes its cell inconclusive, never a pass', () => {
  const p = { valid: true, out: { verdict: 'pass', reasons: [] } };
  failClosed(p, [
    { blocking: true, status: 'pass', look: 'second', metric: 'errors:5xx', adjPWorse: NaN },
    { blocking: true, status: 'pass', look: 'first', metric: 'p99', adjPWorse: 0.4 },
  ]);
  assert.equal(p.out.verdict, 'inconclusive');
  assert.match(p.out.reasons[0], /could not compute a p-value for errors:5xx: not passed/);
  const fine = { valid: true, out: { verdict: 'pass', reasons: [] } };
  failClosed(fine, [{ blocking: true, status: 'pass', look: 'first', metric: 'p99', adjPWorse: 0.4 }]);
  assert.equal(fine.out.verdict, 'pass');
});

// Measured on kind (make perf, kind-routes, the propagation canary): a PR's first look
// asked to confirm propagation p50 ×2.21; the fresh pairs were not valid (k6 dropped 8.7%
// of one pair's iterations), so no fresh test existed — and the cell kept its first look's
// "pass", the regression still pending, and the gate exited 0.
test('a confirmation round that cannot decide (its fresh runs invalid or missing) leaves the cell inconclusive, never a pass', () => {
  const cell = 'traefik/default/routes-alt-errors';
  const first = { cell, base: side([0, 0, 0], 1), head: side([43, 56, 36], 1) };
  assert.equal(gateCells([first], gate, { mode: 'paired' }).confirm.length, 1, 'a candidate at the first look');
  // The fresh pairs: one with 9% of its iterations dropped on both sides.
  const invalid = { base: side([0, 0, 0], 101, [0, 500, 0]), head: side([41, 44, 42], 101, [0, 500, 0]) };
  let v = gateCells([first], gate, { mode: 'paired', confirm: new Map([[cell, invalid]]) });
  assert.equal(v.cells[0].verdict, 'inconclusive', JSON.stringify(v.cells[0].reasons));
  assert.match(
    v.cells[0].reasons.at(-1),
    /the confirmation round cannot decide errors:5xx: r102: 500 dropped iterations/,
  );
  // No fresh runs of the cell arrived at all.
  v = gateCells([first], gate, { mode: 'paired', confirm: new Map() });
  assert.equal(v.cells[0].verdict, 'inconclusive');
  assert.match(v.cells[0].reasons.at(-1), /no fresh runs of this cell arrived/);
  // A confirmation round that clears it: green.
  const clean = { base: side([0, 0, 0], 101), head: side([0, 1, 0], 101) };
  v = gateCells([first], gate, { mode: 'paired', confirm: new Map([[cell, clean]]) });
  assert.equal(v.cells[0].verdict, 'pass', JSON.stringify(v.cells[0].reasons));
});
