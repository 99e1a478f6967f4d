// The duet's paired failover test (compare/failover.js) and the statistics under it
// (compare/stats.js signedRank, hodgesLehmann): it goes red on a clear regression, says
// when it cannot decide, and is shown in the comment.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gateCells } from '../../src/compare/gate.js';
import { FAILOVER_METRIC, MIN_KILLS } from '../../src/compare/failover.js';
import { hodgesLehmann, signedRank } from '../../src/compare/stats.js';
import { applyDefaults } from '../../src/config/defaults.js';
import { parseBench } from '../../src/config/load.js';
import { readFileSync } from 'node:fs';
import { renderMarkdown } from '../../src/report/markdown.js';
import { simulateFailoverPr } from '../helpers/failover-sim.js';

const gate = applyDefaults({ controllers: {}, scenarios: {}, matrices: {} }).gate;
const podKill = (res) => res.cells.find((c) => c.cell.endsWith('/pod-kill'));
const failover = (cell) => cell.metrics.find((m) => m.metric === FAILOVER_METRIC);

test('signedRank: exact one-sided p as R gives it (Hollander & Wolfe: V = 40, p = 0.01953); normal beyond 50', () => {
  const x = [1.83, 0.5, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.3];
  const y = [0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29];
  const r = signedRank(x.map((v, i) => v - y[i]));
  assert.equal(r.tPlus, 40);
  assert.ok(Math.abs(r.pGreater - 0.01953) < 1e-5, String(r.pGreater));
  assert.equal(signedRank([1, 2, 3, 4, 5, 6]).pGreater, 1 / 64);
  // Zeros are dropped; ties share mid-ranks and the exact distribution still sums to 1.
  const tied = signedRank([0, 1, 1, -1, 2, 2, 3]);
  assert.equal(tied.n, 6);
  // |d| mid-ranks 2 2 2 4.5 4.5 6, T⁺ = 19 of 21: 4 of the 64 sign patterns reach it.
  assert.equal(tied.pGreater, 4 / 64);
  const d = Array.from({ length: 60 }, (_, i) => Math.sin(i * 1.7) + 0.3);
  const exact = signedRank(d.slice(0, 50));
  const approx = signedRank(d);
  assert.equal(exact.exact, true);
  assert.equal(approx.exact, false);
  assert.ok(approx.pGreater > 0 && approx.pGreater < 0.05);
});

test('hodgesLehmann: the median of the Walsh averages, inside the interval the test inverts to', () => {
  const hl = hodgesLehmann([0.1, 0.2, 0.25, 0.3, 0.35, 0.5, 0.2, 0.28], 0.05);
  assert.ok(hl.low < hl.estimate && hl.estimate < hl.high);
  assert.ok(Math.abs(hl.estimate - 0.27) < 0.03, String(hl.estimate));
  // Too few observations to reach α: no bound rather than a made-up one.
  assert.deepEqual({ ...hodgesLehmann([0.1, 0.2, 0.3], 0.05), estimate: 0 }, { estimate: 0, low: null, high: null });
});

test('failover gate: a clear regression (every kill stalls both sides, the head ×1.5 longer) is red at the first look', () => {
  const res = gateCells(simulateFailoverPr(11, { q: 1, outlier: 0, headFactor: 1.5 }), gate, { mode: 'paired' });
  const cell = podKill(res);
  const m = failover(cell);
  assert.equal(cell.verdict, 'regression');
  assert.equal(m.status, 'regression');
  assert.equal(m.blocking, true);
  assert.equal(m.kills.both, 24);
  assert.ok(m.ratio > 1.4 && m.ratio < 1.6, String(m.ratio));
  assert.ok(m.ratioLow > 1.15);
  assert.ok(cell.reasons.some((r) => /^failover stall: \d{4} → \d{4} ms \(×1\.\d+, 90% interval/.test(r)));
  assert.ok(m.detectable.ratio80 > 1.15 && m.detectable.ratio80 < 1.3, String(m.detectable.ratio80));
  // It is one of the PR's blocking tests (Holm), beside p99 of both cells.
  assert.ok(res.procedure.blockingTests >= 3);
});

test('failover gate: the same failover on both sides passes', () => {
  const res = gateCells(simulateFailoverPr(12, { q: 1 }), gate, { mode: 'paired' });
  assert.equal(failover(podKill(res)).status, 'pass');
  assert.equal(podKill(res).verdict, 'pass');
});

test(`failover gate: fewer than ${MIN_KILLS} kills that stalled both sides cannot decide — it says so, and blocking, its cell is inconclusive`, () => {
  // 3 pairs × 1 kill, every kill stalling both sides ×2 longer on the head: 3 kills.
  const res = gateCells(simulateFailoverPr(13, { q: 1, kills: 1, headFactor: 2 }), gate, { mode: 'paired' });
  const cell = podKill(res);
  const m = failover(cell);
  assert.equal(m.reliable, false);
  assert.match(m.why, /only 3 of 3 kills stalled both sides \(6 needed/);
  // Not a pass either (issue 59): more pairs would decide (tools/test/unit/kills-accounted.test.js).
  assert.equal(cell.verdict, 'inconclusive');
  assert.ok(cell.reasons.some((w) => w.startsWith('failover stall cannot decide: only 3 of 3 kills')));
  // No kill stalled either side: nothing to compare, and nothing to warn about.
  const calm = podKill(gateCells(simulateFailoverPr(14, { q: 0 }), gate, { mode: 'paired' }));
  assert.match(failover(calm).why, /^no kill stalled both sides/);
  assert.ok(!calm.warnings.some((w) => w.startsWith('failover')));
});

test('failover gate: the floor is the stall’s cut — above the ingest’s it applies to each stall; a run that overflowed is not gated', () => {
  const inputs = simulateFailoverPr(16, { q: 1, outlier: 0, headFactor: 1.5 });
  const kills = podKill(gateCells(inputs, gate, { mode: 'paired' }));
  assert.equal(failover(kills).floorMs, 100);
  // A floor of 10 s: no kill's stall reaches it on either side.
  const high = { ...gate, failover: { ...gate.failover, floor: '10s' } };
  const m = failover(podKill(gateCells(inputs, high, { mode: 'paired' })));
  assert.equal(m.floorMs, 10000);
  assert.ok(m.kills.neither > 20 && m.kills.both < 3, JSON.stringify(m.kills));
  // A floor under the ingest's cut cannot apply: the cut is the floor.
  const low = { ...gate, failover: { ...gate.failover, floor: '20ms' } };
  assert.equal(failover(podKill(gateCells(inputs, low, { mode: 'paired' }))).floorMs, 100);
  // Pair 2's head kept only part of its requests ≥ 100 ms: a clear ×1.5 is not gated, and says why.
  const cut = inputs.map((c) =>
    c.cell.endsWith('/pod-kill')
      ? {
          ...c,
          head: c.head.map((r, i) => (i === 1 ? { ...r, faultCost: { ...r.faultCost, perActionTruncated: true } } : r)),
        }
      : c,
  );
  const cell = podKill(gateCells(cut, gate, { mode: 'paired' }));
  const t = failover(cell);
  assert.equal(t.reliable, false);
  assert.match(t.why, /^pair 2's head kept only part of its requests .*perActionTruncated.*not gated$/);
  assert.notEqual(cell.verdict, 'regression');
  // The ×1.5 it would have failed on is shown as a warning with the reason: never a silent pass.
  assert.equal(t.status, 'unreliable-regression');
  assert.ok(cell.warnings.some((w) => w.includes("pair 2's head kept only part")));
});

test('failover gate: only duets whose runs list their kills (not interleaved pairs, not older results)', () => {
  const strip = (reps, f) => reps.map(f);
  const inputs = simulateFailoverPr(15, { q: 1 });
  const notDuet = inputs.map((c) => ({
    ...c,
    base: strip(c.base, (r) => ({ ...r, meta: { ...r.meta, ab: undefined } })),
    head: strip(c.head, (r) => ({ ...r, meta: { ...r.meta, ab: undefined } })),
  }));
  const older = inputs.map((c) => ({
    ...c,
    base: strip(c.base, (r) => ({ ...r, faultCost: r.faultCost && { ...r.faultCost, perAction: undefined } })),
    head: strip(c.head, (r) => ({ ...r, faultCost: r.faultCost && { ...r.faultCost, perAction: undefined } })),
  }));
  for (const x of [notDuet, older]) assert.equal(failover(podKill(gateCells(x, gate, { mode: 'paired' }))), undefined);
  assert.equal(failover(podKill(gateCells(inputs, gate, { mode: 'paired', ...{} }))).metric, FAILOVER_METRIC);
  const off = { ...gate, failover: { ...gate.failover, blocking: false } };
  const advisory = failover(
    podKill(gateCells(simulateFailoverPr(11, { q: 1, outlier: 0, headFactor: 1.5 }), off, { mode: 'paired' })),
  );
  assert.equal(advisory.blocking, false);
});

test('failover gate: the comment shows the cell’s kills, stalls base → head, the change, p, status and what it sees', () => {
  const res = gateCells(simulateFailoverPr(11, { q: 1, outlier: 0, headFactor: 1.5 }), gate, { mode: 'paired' });
  const body = renderMarkdown({ overall: 'regression', mode: 'paired', cells: res.cells, procedure: res.procedure });
  assert.match(body, /\*\*Failover under pod kills\*\*/);
  assert.match(
    body,
    /\| ❌ \| `haproxy-ingress\/default\/pod-kill` \| 24 \/ 0 \/ 0 \/ 0 \| \d{4}ms → \d{4}ms \| ×1\.\d+ \(×1\.\d+–×1\.\d+\) \| [\d.e-]+ \([\d.e-]+\) \| regression 🔺 \| ×1\.\d+ \|/,
  );
  const few = gateCells(simulateFailoverPr(13, { q: 1, kills: 1 }), gate, { mode: 'paired' });
  assert.match(
    renderMarkdown({ overall: 'pass', mode: 'paired', cells: few.cells, procedure: few.procedure }),
    /\| cannot decide: only 3 of 3 kills stalled both sides/,
  );
  const steadyOnly = res.cells.filter((c) => !c.cell.endsWith('/pod-kill'));
  assert.doesNotMatch(
    renderMarkdown({ overall: 'pass', mode: 'paired', cells: steadyOnly, procedure: res.procedure }),
    /Failover under pod kills/,
  );
});

test('config: gate.failover has defaults, a matrix may override it, bench.yaml may set it', () => {
  assert.deepEqual(gate.failover, { threshold: '15%', floor: '100ms', blocking: true });
  const cfg = applyDefaults({
    controllers: {},
    scenarios: {},
    gate: { failover: { threshold: '20%' } },
    matrices: { m: { target: 'local', gate: { failover: { blocking: false } } } },
  });
  assert.deepEqual(cfg.gate.failover, { threshold: '20%', floor: '100ms', blocking: true });
  assert.deepEqual(cfg.matrices.m.gate.failover, { threshold: '20%', floor: '100ms', blocking: false });
  const file = new URL('../../../bench.yaml', import.meta.url).pathname;
  const text = readFileSync(file, 'utf8').replace(
    '\ngate:\n',
    '\ngate:\n  failover: { threshold: 20%, floor: 200ms }\n',
  );
  assert.deepEqual(parseBench(text, file).matrices.pr.gate.failover, {
    threshold: '20%',
    floor: '200ms',
    blocking: true,
  });
  assert.throws(() => parseBench(text.replace('200ms }', '200ms, every: 1s }'), file), /bench config/);
});
