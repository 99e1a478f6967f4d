// A duet's two sides share one k6: iterations it drops are the generator's and hit both
// sides alike, so they do not void the pair (up to maxSharedDroppedRatio); its sides swap
// places every other pair; cells with faults carry their own noise level.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyDefaults } from '../../src/config/defaults.js';
import { gateCells } from '../../src/compare/gate.js';
import { cellLoad, duetSides, sideUrls } from '../../src/engines/load.js';
import { simRep } from '../helpers/pr-sim.js';

const gate = { ...applyDefaults({ controllers: {}, scenarios: {}, matrices: {} }).gate, assumedDuetCv: 0.06 };

function duetCell(ratios, { dropped = [], faults = false, requests = 13_500 } = {}) {
  const mk = (p99, pair, side) =>
    simRep({
      source: `${side}#${pair}`,
      percentiles: { p50: 1, p90: 2, p99, 'p99.9': p99 * 2, 'p99.99': p99 * 4, max: p99 * 8 },
      intervals: { p99: { low: p99 * 0.97, high: p99 * 1.03, reliable: true } },
      requests,
      errors: { total: 0, byClass: {} },
      pair,
      t: Date.parse('2026-11-25T10:00:00Z') + pair * 60_000,
      side,
      faults,
      dropped: dropped[pair - 1] ?? 0,
    });
  return {
    cell: `traefik/default/${faults ? 'pod-kill' : 'steady'}`,
    base: ratios.map((_, i) => mk(5, i + 1, 'a')),
    head: ratios.map((r, i) => mk(5 * r, i + 1, 'b')),
  };
}

// Each side's own data plane CPU per 1,000 requests (results' `resources`).
const cpu = (reps, x) => reps.forEach((r) => (r.resources = { cpuSeconds: x * 13.5, cpuPer1kRequests: x }));

test('duet: iterations k6 dropped on both sides alike leave the pair valid (it was inconclusive before)', () => {
  // 20 and 179 dropped of 13,500 per side: 0.15% and 1.3% (the pod-kill A/A duets on kind).
  const cell = duetCell([1.02, 0.97, 1.01], { dropped: [20, 0, 179] });
  const [v] = gateCells([cell], gate, { mode: 'paired' }).cells;
  assert.equal(v.verdict, 'pass', v.reasons.join('; '));
  assert.deepEqual(
    v.sharedDrops.map((d) => [d.pair, d.dropped]),
    [
      [1, 20],
      [3, 179],
    ],
  );
  assert.ok(v.warnings.some((w) => /on both sides alike: one load generator drives both sides of a duet/.test(w)));
});

test('duet: shared drops beyond maxSharedDroppedRatio still make the cell inconclusive (the load was not the scenario)', () => {
  const cell = duetCell([1, 1, 1], { dropped: [0, 500, 0] }); // 3.6%
  const [v] = gateCells([cell], gate, { mode: 'paired' }).cells;
  assert.equal(v.verdict, 'inconclusive');
  assert.ok(
    v.reasons.some((r) => /500 dropped iterations \(3\.57%\) > 2\.00%/.test(r)),
    v.reasons.join('; '),
  );
});

test('duet: drops the two sides do not share are not the generator alone — judged as before', () => {
  const cell = duetCell([1, 1, 1], { dropped: [0, 40, 0] });
  cell.head[1].load = { ...cell.head[1].load, droppedIterations: 0, droppedRatio: 0 };
  const [v] = gateCells([cell], gate, { mode: 'paired' }).cells;
  assert.equal(v.verdict, 'inconclusive', 'base-only drops: the generator could not deliver the rate');
});

test('duet: a real regression with shared drops is still caught', () => {
  const cell = duetCell([1.5, 1.45, 1.55], { dropped: [30, 30, 30] });
  const [v] = gateCells([cell], gate, { mode: 'paired' }).cells;
  assert.equal(v.verdict, 'regression');
});

test('duet: a pod-kill cell is judged at its own noise level, not at the steady cells’ (no-op pod-kill spread ×0.8–×1.35)', () => {
  const steady = duetCell([1.01, 0.99, 1.0]);
  const podKill = duetCell([1.35, 0.8, 1.3], { faults: true });
  const [, v] = gateCells([steady, podKill], gate, { mode: 'paired' }).cells;
  assert.notEqual(v.verdict, 'regression', JSON.stringify(v.metrics.find((m) => m.metric === 'p99')));
  const p99 = v.metrics.find((m) => m.metric === 'p99');
  assert.ok(
    p99.detectable.ratio80 > 1.5,
    `a pod-kill cell with 3 pairs cannot see small p99 changes: ×${p99.detectable.ratio80}`,
  );
});

test('duet: k6 runs both sides’ rate starting with both sides’ VUs (one side’s pool ran dry in a pod kill’s stall), under the scenario’s ceiling', () => {
  const scenario = { rate: 500, vus: 500, maxVus: 2000, duration: '45s' };
  assert.deepEqual(cellLoad({ scenario, concurrent: true }), { ...scenario, rate: 1000, vus: 1000, maxVus: 2000 });
  assert.equal(cellLoad({ scenario: { ...scenario, maxVus: 500 }, concurrent: true }).maxVus, 1000, 'never below vus');
  assert.equal(cellLoad({ scenario }), scenario, 'one side alone: the scenario as written');
});

test('duet: sides swap every other pair — base on side a in odd repetitions, on side b in even ones', () => {
  const cell = (repetition) => ({ concurrent: { name: 'x' }, repetition });
  assert.deepEqual(duetSides(cell(1)), ['base', 'head']);
  assert.deepEqual(duetSides(cell(2)), ['head', 'base']);
  assert.deepEqual(duetSides(cell(3)), ['base', 'head']);
  assert.deepEqual(sideUrls(cell(2), 'http://base', 'http://head'), ['http://head', 'http://base']);
  assert.deepEqual(duetSides({ repetition: 2 }), ['base', 'head'], 'not a duet: nothing to swap');
});

test('duet: a head that burns clearly more CPU per request than its base is named (cross-talk may hide its cost)', () => {
  const cell = duetCell([1.05, 1.02, 1.04]);
  cpu(cell.base, 0.3);
  cpu(cell.head, 0.45);
  const [v] = gateCells([cell], gate, { mode: 'paired' }).cells;
  assert.deepEqual(v.crossTalk, { cpuRatio: 1.5, baseCpuPer1k: 0.3, headCpuPer1k: 0.45 });
  assert.ok(v.warnings.some((w) => /burns ×1\.5 the CPU per request .*confirm with interleaved pairs/.test(w)));
  cpu(cell.head, 0.32);
  assert.equal(gateCells([cell], gate, { mode: 'paired' }).cells[0].crossTalk, undefined, 'within 25%: nothing said');
});

test('duet: a cross-talk cell is confirmed as interleaved pairs, whose own ratio decides — the duet understated it', () => {
  // The duet saw ×1.02 (its base slowed by the head's CPU too): no regression on its own,
  // but the cell is listed for a confirmation round run without the duet.
  const cell = duetCell([1.03, 1.01, 1.02]);
  cpu(cell.base, 0.3);
  cpu(cell.head, 0.6);
  const first = gateCells([cell], gate, { mode: 'paired' });
  assert.equal(first.cells[0].awaiting, 'confirmation', 'undecided until the round: not a pass');
  assert.deepEqual(
    first.confirm.map((c) => [c.cell, c.interleaved]),
    [['traefik/default/steady', true]],
  );
  assert.ok(first.cells[0].warnings.some((w) => /needs confirmation as interleaved pairs/.test(w)));
  // Interleaved pairs (no side in a duet) at ×1.6: the head's real cost — red.
  const interleaved = (ratios) => {
    const c = duetCell(ratios);
    for (const r of [...c.base, ...c.head]) delete r.meta.ab;
    return c;
  };
  const worse = interleaved([1.62, 1.58, 1.6]);
  const confirmed = gateCells([cell], gate, { mode: 'paired', confirm: new Map([[cell.cell, worse]]) });
  assert.equal(confirmed.cells[0].verdict, 'regression', confirmed.cells[0].reasons.join('; '));
  // Interleaved pairs that show nothing: green, and no further round.
  const same = interleaved([1.01, 0.99, 1.0]);
  const cleared = gateCells([cell], gate, { mode: 'paired', confirm: new Map([[cell.cell, same]]) });
  assert.equal(cleared.cells[0].verdict, 'pass');
  assert.deepEqual(cleared.confirm, []);
  // Without cross-talk the same duet is a plain pass: nothing to confirm.
  cpu(cell.head, 0.31);
  assert.deepEqual(gateCells([cell], gate, { mode: 'paired' }).confirm, []);
});

test('duet: a head so slow it holds every VU of the one k6 makes the drops its omission — a regression, not "k6 could not deliver the rate even for the base"', () => {
  // On kind a head capped at 50m CPU answered in seconds (p99 ×2000), k6 dropped 12-19% of
  // iterations on both sides and the cell was inconclusive. The base alone holds
  // 500/s × 40 ms = 20 VUs of 50; the head alone 500/s × 80 s: it held them all.
  const cell = duetCell([2000, 2000, 2000], { dropped: [1500, 1600, 1550] });
  const [v] = gateCells([cell], gate, { mode: 'paired' }).cells;
  assert.equal(v.verdict, 'regression', [...v.reasons, ...v.warnings].join('; '));
  assert.ok(
    v.warnings.some((w) => /the head held every VU of the duet's one k6/.test(w)),
    v.warnings.join('; '),
  );
  assert.ok(!v.reasons.some((r) => /could not deliver the rate even for the base/.test(r)));
});

test("duet: a base with a few 10 s timeouts beside a head that holds every VU is still the head's omission (mean, not slowest response)", () => {
  // make test-workflows, the fork PR capping haproxy-ingress at 50m CPU: ~30% dropped on
  // both sides, the base starved into 9-12 timeouts of 10 s (slowest response = the
  // head's), mean 20 ms; the head's mean 3.2 s. Judged by the slowest response the base
  // "could" hold every VU too and the PR came out inconclusive instead of red.
  const cell = duetCell([2, 2, 2], { dropped: [2535, 2716, 3315] });
  for (const r of cell.base) Object.assign(r, { meanMs: 20 }, { percentiles: { ...r.percentiles, max: 10002 } });
  for (const r of cell.head) Object.assign(r, { meanMs: 3200 }, { percentiles: { ...r.percentiles, max: 10002 } });
  const [v] = gateCells([cell], gate, { mode: 'paired' }).cells;
  assert.ok(!v.reasons.some((r) => /could not deliver the rate even for the base/.test(r)), v.reasons.join('; '));
  assert.ok(
    v.warnings.some((w) => /the head held every VU of the duet's one k6/.test(w)),
    v.warnings.join('; '),
  );
  assert.equal(v.verdict, 'regression', [...v.reasons, ...v.warnings].join('; '));
});

test("duet: shared drops neither side could cause alone stay the generator's (inconclusive above the shared limit)", () => {
  const cell = duetCell([1.05, 1.05, 1.05], { dropped: [1500, 1600, 1550] });
  const [v] = gateCells([cell], gate, { mode: 'paired' }).cells;
  assert.equal(v.verdict, 'inconclusive');
});
