// Sequential pairs for duet cells (maxRepetitions), simulated through the real interim
// rule (compare/sequential.js) and the real gate (gateCells): the PR's false-fail rate
// stays at α, a ×1.10 p99 change in a steady cell is caught, and clear cells stop early.
// A PR is init's duet shape: a steady cell (pair log ratio sd σ) and a pod-kill cell
// (sd 0.16, ~20 502s per run on each side). σ 0.07 and 0.118: the sd of a steady duet
// cell's p99 log ratio at 45 s per pair on 2 cores. Seeded; a few seconds on one core.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyDefaults } from '../../src/config/defaults.js';
import { familyBound } from '../../src/compare/sequential.js';
import { sequentialPr, sequentialRates } from '../helpers/sequential-sim.js';

const defaults = applyDefaults({ controllers: {}, scenarios: {}, matrices: {} }).gate;
// p99 at 5%, the matrix stating its measured noise. Advisory quantiles never change a
// verdict; left out, they leave the simulation five times faster.
const gateFor = (sd) => ({
  ...defaults,
  assumedDuetCv: sd,
  latency: { p99: { ...defaults.latency.p99, threshold: '5%' } },
});
const cellsFor = (sd, ratio = 1) => [
  { sd, ratio },
  { sd: 0.16, faults: true, errorsPerRun: 20 },
];
const plannedCells = [{ key: 'c0/default/s' }, { key: 'c1/default/s', scenario: { faults: [{ type: 'pod-kill' }] } }];
const N = 300;
const pct = (x) => `${(100 * x).toFixed(1)}%`;

test('sequential duet PRs (maxRepetitions 8): no-op ≤ 5% red, ×1.10 steady p99 caught ≥ 80% at σ 0.07', (t) => {
  const rows = [];
  const at = {};
  for (const sd of [0.07, 0.118]) {
    const gate = gateFor(sd);
    const design = { minPairs: 3, maxPairs: 8, family: familyBound(plannedCells, gate) };
    const noop = sequentialRates(N, gate, { ...design, cells: cellsFor(sd) });
    const x110 = sequentialRates(N, gate, { ...design, cells: cellsFor(sd, 1.1) });
    at[sd] = { noop, x110 };
    rows.push(
      `| ${sd} | ${pct(noop.failed)} | ${noop.pairs.map((p) => p.toFixed(1)).join(' / ')} | ${pct(x110.caught)} | ${x110.pairs.map((p) => p.toFixed(1)).join(' / ')} |`,
    );
    assert.ok(noop.failed <= 0.05, `σ ${sd}: no-op PRs red ${pct(noop.failed)}`);
    assert.equal(noop.rounds + x110.rounds, 0, 'a sequential cell never asks for a confirmation round');
  }
  // What futility stops cost: the same PRs (each cell draws its own pairs) without them.
  const gate = gateFor(0.07);
  const noFutility = sequentialRates(N, gate, {
    minPairs: 3,
    maxPairs: 8,
    family: familyBound(plannedCells, gate),
    cells: cellsFor(0.07, 1.1),
    futility: false,
  });
  for (const line of [
    `sequential duets, ${N} PRs each (steady + pod-kill σ 0.16, p99 threshold 5%, pairs 3…8):`,
    '| σ steady | no-op red | mean pairs steady / pod-kill | ×1.10 caught | mean pairs steady / pod-kill |',
    ...rows,
    `futility stops cost ${pct(noFutility.caught - at[0.07].x110.caught)} of the ×1.10 catches at σ 0.07 (${pct(noFutility.caught)} without them)`,
  ])
    t.diagnostic(line);
  assert.ok(at[0.07].x110.caught >= 0.8, `×1.10 caught ${pct(at[0.07].x110.caught)}`);
  // Clear cells stop early: a no-op steady cell at σ 0.07 needs well under the budget.
  assert.ok(at[0.07].noop.pairs[0] < 5.5, `no-op steady cell used ${at[0.07].noop.pairs[0]} pairs`);
  assert.ok(noFutility.caught - at[0.07].x110.caught <= 0.05, 'futility costs at most 5 points');
});

test('the fixed design (no maxRepetitions) is unchanged: confirmation rounds, no sequential adjustment', () => {
  const gate = gateFor(0.07);
  let rounds = 0;
  for (let s = 1; s <= 40; s++) {
    const fixed = sequentialPr(s * 31, gate, { cells: cellsFor(0.07, 1.1) });
    assert.deepEqual(fixed.pairs, [3, 3]);
    for (const c of fixed.verdict.cells) {
      assert.equal(c.sequential, undefined);
      for (const m of c.metrics.filter((x) => x.look)) assert.notEqual(m.look, 'sequential');
    }
    rounds += fixed.verdict.confirm.length > 0;
  }
  // ×1.10 at 3 pairs is exactly what confirm-on-fail is for.
  assert.ok(rounds > 0, 'candidates still ask for a confirmation round');
});

test("a sequential cell's `sees p99` is what the rule catches at maxRepetitions (within a few points)", (t) => {
  const gate = gateFor(0.07);
  const opts = { minPairs: 3, maxPairs: 8, family: familyBound(plannedCells, gate) };
  const seen = [];
  for (let s = 1; s <= 41; s++) {
    const v = sequentialPr(s * 13, gate, { ...opts, cells: cellsFor(0.07) });
    seen.push(v.verdict.cells[0].metrics.find((m) => m.metric === 'p99').detectable.ratio80);
  }
  const ratio = seen.sort((a, b) => a - b)[20];
  const r = sequentialRates(200, gate, { ...opts, cells: cellsFor(0.07, ratio) });
  t.diagnostic(`σ 0.07: sees p99 ×${ratio} (median); simulated at that change: caught ${pct(r.caught)}`);
  assert.ok(ratio > 1.05 && ratio < 1.1, `sees ×${ratio}`);
  assert.ok(r.caught >= 0.7 && r.caught <= 0.9, `caught ${pct(r.caught)} at the promised ×${ratio}`);
});
