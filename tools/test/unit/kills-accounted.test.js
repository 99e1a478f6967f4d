// Every kill accounted for (issue 59, item 3). One events file feeds both sides of a duet,
// so each pair's two kill lists are one schedule: the same count, order and times. A list
// missing or contradicting its pair makes the cell inconclusive, naming pair and side —
// before, the failover test vanished or dropped the unmatched kills, and the cell passed.
// And a failover test that cannot decide on a blocking rule is inconclusive, not a pass.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gateCells } from '../../src/compare/gate.js';
import { FAILOVER_METRIC, killSchedule } from '../../src/compare/failover.js';
import { applyDefaults } from '../../src/config/defaults.js';
import { simulateFailoverPr } from '../helpers/failover-sim.js';

const gate = applyDefaults({ controllers: {}, scenarios: {}, matrices: {} }).gate;
const podKill = (res) => res.cells.find((c) => c.cell.endsWith('/pod-kill'));
const failover = (cell) => cell.metrics.find((m) => m.metric === FAILOVER_METRIC);
const judge = (inputs) => podKill(gateCells(inputs, gate, { mode: 'paired' }));

// A failover ×1.5 slower on the head (its exposure), every kill hitting both sides: red when whole.
const REGRESSION = { active: 1, q: 1, outlier: 0, headFactor: 1.5, everyMs: 5000 };

// The pod-kill cell's head run of pair `pair` (1-based) changed by f.
function withHead(inputs, pair, f) {
  return inputs.map((c) =>
    c.cell.endsWith('/pod-kill') ? { ...c, head: c.head.map((r) => (r.meta.pair === pair ? f(r) : r)) } : c,
  );
}
const perAction = (r, f) => ({ ...r, faultCost: { ...r.faultCost, perAction: f(r.faultCost.perAction) } });

test('every kill accounted for: the whole schedule decides, and a ×1.5 slower failover is red', () => {
  assert.equal(judge(simulateFailoverPr(11, REGRESSION)).verdict, 'regression');
});

test("every kill accounted for: a head whose kill list is missing makes the cell inconclusive, naming pair 2's head", () => {
  const inputs = withHead(simulateFailoverPr(11, REGRESSION), 2, (r) => ({ ...r, faultCost: undefined }));
  const cell = judge(inputs);
  assert.equal(cell.verdict, 'inconclusive');
  assert.match(cell.reasons.join(' '), /pair 2: the head lists no kills \(faultCost\.perAction\), the base 8/);
  assert.equal(failover(cell).reliable, false);
});

// Two kills a pair: 6 in all, enough to decide — one dropped and the old test could not.
const FEW = { ...REGRESSION, kills: 2 };

test('every kill accounted for: kill lists whose counts disagree make the cell inconclusive, naming pair and counts', () => {
  // Before: the unmatched kill was dropped, 5 kills "cannot decide", and the cell passed.
  const inputs = withHead(simulateFailoverPr(11, FEW), 3, (r) => perAction(r, (list) => list.slice(0, 1)));
  const cell = judge(inputs);
  assert.equal(cell.verdict, 'inconclusive');
  assert.match(cell.reasons.join(' '), /pair 3: the base lists 2 kills, the head 1/);
});

test('every kill accounted for: a kill at another time on one side makes the cell inconclusive, naming the kill', () => {
  // Before: kill 2 of pair 1 met no kill on the head, was dropped, and the cell passed.
  const shift = (list) => list.map((a, k) => (k === 1 ? { ...a, at: a.at + 1 } : a));
  const cell = judge(withHead(simulateFailoverPr(11, FEW), 1, (r) => perAction(r, shift)));
  assert.equal(cell.verdict, 'inconclusive');
  assert.match(cell.reasons.join(' '), /pair 1, kill 2: at 5 s on the base, 6 s on the head/);
  // Within the clock's tolerance the schedule is one.
  const jitter = (list) => list.map((a, k) => (k === 3 ? { ...a, at: a.at + 0.05 } : a));
  assert.equal(
    judge(withHead(simulateFailoverPr(11, REGRESSION), 1, (r) => perAction(r, jitter))).verdict,
    'regression',
  );
  // The schedule check alone, as the interim look and the gate read it.
  const [p] = simulateFailoverPr(11, REGRESSION).filter((c) => c.cell.endsWith('/pod-kill'));
  assert.deepEqual(killSchedule(p.base.map((b, i) => ({ pair: i + 1, base: b, head: p.head[i] }))), {
    problems: [],
    kills: true,
  });
});

test('every kill accounted for: a failover test that cannot decide on a blocking rule is inconclusive, not a pass', () => {
  // 3 pairs × 1 kill, each hitting both sides, the head exposed ×2 longer: 3 kills, 5 needed.
  const few = { active: 1, q: 1, kills: 1, headFactor: 2 };
  const cell = judge(simulateFailoverPr(13, few));
  assert.equal(failover(cell).reliable, false);
  assert.equal(cell.verdict, 'inconclusive');
  assert.match(
    cell.reasons.join(' '),
    /failover exposure cannot decide: too few kills tell the sides apart: 3 hit both/,
  );
  // Advisory, it only warns, as before.
  const off = { ...gate, failover: { ...gate.failover, blocking: false } };
  const advisory = podKill(gateCells(simulateFailoverPr(13, few), off, { mode: 'paired' }));
  assert.notEqual(advisory.verdict, 'inconclusive');
  // No kill held up anything on the head: nothing it held up can be longer — decided.
  assert.equal(judge(simulateFailoverPr(14, { q: 0 })).verdict, 'pass');
});
