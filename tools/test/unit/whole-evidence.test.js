// Every blocking test on whole evidence (issue 67, item 3): a blocking test — latency,
// errors, failover, route propagation, CPU — whose figure is missing, not a number or out
// of range on any run is inconclusive for its cell, naming the run, its side and the
// figure; never tested on the runs that are left. Held out: gate.cpu tested only the cells
// where every run had a positive CPU figure, so one run without it (or with 0, -1, null or
// text) dropped the cell from the test in silence, and one absurd reading spread the pairs
// until a ×1.36 CPU regression passed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyDefaults } from '../../src/config/defaults.js';
import { gateCells } from '../../src/compare/gate.js';
import { duetPair } from '../helpers/sequential-sim.js';
import { simulateRoutePr } from '../helpers/route-sim.js';
import { simulateFailoverPr } from '../helpers/failover-sim.js';
import { simRep } from '../helpers/pr-sim.js';

const defaults = applyDefaults({ controllers: {}, scenarios: {}, matrices: {} }).gate;
const CPU_BLOCKING = { ...defaults, cpu: { ...defaults.cpu, blocking: true } };

// Every run names its engine (issue 67, item 1), so only the evidence under test is short.
const named = (r) => ({ ...r, meta: { ...r.meta, k6: 'v1.4.0' } });
const judge = (c, gate, mode = 'paired') => gateCells([c], gate, { mode }).cells[0];
const said = (v) => [...v.reasons, ...v.warnings].join(' | ');

// A cell of 3 interleaved pairs (not a duet: no cross-talk guard), p99 alike on both
// sides, each side's CPU per 1,000 requests.
function cpuCell(baseCpu, headCpu) {
  const base = [];
  const head = [];
  [0.01, -0.01, 0].forEach((d, i) => {
    const p = duetPair({ pair: i + 1, d, withinSd: 0.03 });
    const cpu = ({ meta: { ab, ...meta }, ...rep }, v) =>
      named({ ...rep, meta, ...(v === undefined ? {} : { resources: { cpuSeconds: 10, cpuPer1kRequests: v } }) });
    base.push(cpu(p.base, baseCpu[i]));
    head.push(cpu(p.head, headCpu[i]));
  });
  return { cell: 'traefik/default/steady', base, head };
}

test('whole evidence, CPU: the same CPU on both sides passes; a ×1.36 CPU change is not passed (the test runs)', () => {
  assert.equal(judge(cpuCell([0.65, 0.66, 0.64], [0.65, 0.66, 0.65]), CPU_BLOCKING).verdict, 'pass');
  const worse = judge(cpuCell([0.65, 0.66, 0.64], [0.88, 0.9, 0.87]), CPU_BLOCKING);
  assert.notEqual(worse.verdict, 'pass');
  assert.ok(worse.metrics.some((m) => m.metric === 'cpu' && m.status !== 'missing'));
});

test('whole evidence, CPU: a run without its CPU figure, or with 0, a negative number, null or text, is inconclusive — naming run, side and figure', () => {
  for (const bad of [undefined, 0, -0.5, null, '0.9', Number.NaN]) {
    const c = cpuCell([0.65, 0.66, 0.64], [0.88, bad, 0.87]);
    if (bad === undefined) delete c.head[1].resources;
    const v = judge(c, CPU_BLOCKING);
    assert.equal(v.verdict, 'inconclusive', `head pair 2 CPU ${String(bad)}: ${said(v)}`);
    assert.match(said(v), /cpu/, String(bad));
    assert.match(said(v), /head/, String(bad));
    assert.match(said(v), /pair 2/, String(bad));
    assert.match(said(v), /cpuPer1kRequests/, String(bad));
  }
  // On the base side too.
  const v = judge(cpuCell([0.65, null, 0.64], [0.65, 0.66, 0.65]), CPU_BLOCKING);
  assert.equal(v.verdict, 'inconclusive');
  assert.match(said(v), /base.*pair 2|pair 2.*base/);
});

test('whole evidence, CPU: one absurd reading is out of range, not a wider spread that lets a ×1.36 change pass', () => {
  const v = judge(cpuCell([0.65, 0.66, 0.64], [0.88, 0.0001, 0.87]), CPU_BLOCKING);
  assert.notEqual(v.verdict, 'pass', said(v));
  assert.equal(v.verdict, 'inconclusive', said(v));
  assert.match(said(v), /pair 2/);
  assert.match(said(v), /out of range/);
});

test('whole evidence, latency: a baseline repetition whose p99 is missing, null, text or negative is inconclusive, named', () => {
  const rep = (i, p99) =>
    named(
      simRep({
        source: `base.json#rep${i + 1}`,
        percentiles: { p50: 0.4, p90: 0.8, p99, 'p99.9': 3, 'p99.99': 5, max: 9 },
        intervals: {},
        requests: 20_000,
        errors: { total: 0, byClass: {} },
        t: Date.parse('2026-12-01T10:00:00Z') + i * 60_000,
      }),
    );
  const head = [0, 1, 2].map((i) => rep(i, 1));
  // Whole: the same p99 passes, a ×2 p99 against its baselines is red.
  const whole = [0, 1, 2].map((i) => rep(i, 1));
  assert.equal(judge({ cell: 'c/default/s', base: whole, head }, defaults, 'baseline').verdict, 'pass');
  const slower = head.map((r, i) => rep(i, 2));
  assert.equal(judge({ cell: 'c/default/s', base: whole, head: slower }, defaults, 'baseline').verdict, 'regression');
  for (const bad of [undefined, null, '1', -1, 0]) {
    const base = [rep(0, 1), rep(1, bad), rep(2, 1)];
    const v = judge({ cell: 'c/default/s', base, head }, defaults, 'baseline');
    assert.equal(v.verdict, 'inconclusive', `base rep 2 p99 ${String(bad)}: ${said(v)}`);
    assert.match(said(v), /p99/);
    assert.match(said(v), /base/);
    assert.match(said(v), /rep2/);
  }
});

test('whole evidence, errors: a run whose error or dropped count is not a count is inconclusive, named', () => {
  const rep = (i, extra = {}) =>
    named({
      ...simRep({
        source: `base.json#rep${i + 1}`,
        percentiles: { p50: 0.4, p90: 0.8, p99: 1, 'p99.9': 3, 'p99.99': 5, max: 9 },
        intervals: {},
        requests: 20_000,
        errors: { total: 0, byClass: {} },
        t: Date.parse('2026-12-01T10:00:00Z') + i * 60_000,
      }),
      ...extra,
    });
  const head = [0, 1, 2].map((i) => rep(i));
  const cases = [
    { errors: { total: 3, byClass: { http502: '3' } } },
    { errors: { total: -2, byClass: { http502: -2 } } },
    {
      load: {
        targetRate: 500,
        achievedRate: 500,
        achievedRatio: 1,
        droppedIterations: null,
        droppedRatio: 0,
        k6ExitCode: 0,
      },
    },
    {
      load: {
        targetRate: 500,
        achievedRate: 500,
        achievedRatio: 1,
        droppedIterations: 'x',
        droppedRatio: 0,
        k6ExitCode: 0,
      },
    },
  ];
  for (const extra of cases) {
    const base = [rep(0), rep(1, extra), rep(2)];
    const v = judge({ cell: 'c/default/s', base, head }, defaults, 'baseline');
    assert.equal(v.verdict, 'inconclusive', `${JSON.stringify(extra)}: ${said(v)}`);
    assert.match(said(v), /rep2/);
    assert.match(said(v), /base/);
  }
});

test('whole evidence, propagation: a run of a route cell without its edits is inconclusive, not a cell without a propagation test', () => {
  const [c] = simulateRoutePr(11, { pairs: 3, edits: 40 });
  const cell = { ...c, base: c.base.map(named), head: c.head.map(named) };
  assert.ok(
    judge(cell, defaults).metrics.some((m) => m.metric === 'propagation p50'),
    'whole: tested',
  );
  const lost = { ...cell, head: cell.head.map((r, i) => (i === 1 ? { ...r, routes: null } : r)) };
  const v = judge(lost, defaults);
  assert.equal(v.verdict, 'inconclusive', said(v));
  assert.match(said(v), /propagation p50/);
  assert.match(said(v), /head/);
  assert.match(said(v), /pair 2/);
  const text = {
    ...cell,
    base: cell.base.map((r, i) =>
      i === 2 ? { ...r, routes: { ...r.routes, quantiles: { ...r.routes.quantiles, p90: 'slow' } } } : r,
    ),
  };
  const w = judge(text, defaults);
  assert.equal(w.verdict, 'inconclusive', said(w));
  assert.match(said(w), /propagation p90/);
  assert.match(said(w), /base/);
  assert.match(said(w), /pair 3/);
});

test('whole evidence, failover: a kill whose stall is not a number is inconclusive, naming pair, kill and side', () => {
  const [, podKill] = simulateFailoverPr(5, { pairs: 3 });
  const cell = { ...podKill, base: podKill.base.map(named), head: podKill.head.map(named) };
  // Whole: the failover test runs on every kill (whatever it finds).
  const whole = judge(cell, defaults);
  assert.ok(
    whole.metrics.some((m) => m.metric.startsWith('failover')),
    said(whole),
  );
  assert.doesNotMatch(said(whole), /stallMs/);
  for (const bad of [null, 'long', -5]) {
    const head = cell.head.map((r, i) =>
      i === 0
        ? {
            ...r,
            faultCost: {
              ...r.faultCost,
              perAction: r.faultCost.perAction.map((a, k) => (k === 2 ? { ...a, stallMs: bad } : a)),
            },
          }
        : r,
    );
    const v = judge({ ...cell, head }, defaults);
    assert.equal(v.verdict, 'inconclusive', `${String(bad)}: ${said(v)}`);
    assert.match(said(v), /pair 1/);
    assert.match(said(v), /kill 3/);
    assert.match(said(v), /head/);
    assert.match(said(v), /stallMs/);
  }
});
