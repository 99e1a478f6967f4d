import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyDefaults } from '../../src/config/defaults.js';
import { compareCell } from '../../src/compare/cell.js';
import { gateCells } from '../../src/compare/gate.js';
import { resultRep } from '../../src/result/load.js';
import { syntheticResult } from '../helpers/synthetic.js';

const gate = applyDefaults({ controllers: {}, scenarios: {}, matrices: {} }).gate;

async function reps(count, opts) {
  const out = [];
  for (let i = 0; i < count; i++) {
    const { result, file } = await syntheticResult({ ...opts, seed: (opts.seed ?? 1) * 100 + i });
    out.push(resultRep(result, file));
  }
  return out;
}

const medianMs = 4; // p99 ~ 12.8 ms with sigma 0.5: above every default floor

test('gate: A/A with run-to-run noise passes (3 vs 3 repetitions)', async () => {
  const base = [
    ...(await reps(1, { medianMs, scale: 0.96 })),
    ...(await reps(1, { medianMs, scale: 1.03, seed: 2 })),
    ...(await reps(1, { medianMs, seed: 3 })),
  ];
  const head = [
    ...(await reps(1, { medianMs, scale: 1.04, seed: 4 })),
    ...(await reps(1, { medianMs, scale: 0.98, seed: 5 })),
    ...(await reps(1, { medianMs, seed: 6 })),
  ];
  const v = compareCell({ cell: 'x', base, head, gate });
  assert.equal(v.verdict, 'pass', JSON.stringify(v.reasons));
});

test('gate: a x2.5 latency shift is a regression with 3 vs 3 repetitions, without confirmation', async () => {
  const base = await reps(3, { medianMs, seed: 7 });
  const head = await reps(3, { medianMs, scale: 2.5, seed: 8 });
  const v = compareCell({ cell: 'x', base, head, gate });
  assert.equal(v.verdict, 'regression');
  const p99 = v.metrics.find((m) => m.metric === 'p99');
  assert.equal(p99.status, 'regression');
  assert.ok(p99.ratio > 2.3 && p99.ratio < 2.7, `${p99.ratio}`);
  assert.match(
    v.reasons.join('\n'),
    /p99: .* ms \(×2\.\d+, 90% interval ×\d\.\d+–×\d\.\d+; p=[\d.e-]+, adjusted [\d.e-]+ over \d+ tests?\)/,
  );
});

test('gate: with 1 vs 1 repetition the assumed run-to-run noise (25%) decides; a suspicious change is confirmed on fresh runs', async () => {
  const v = compareCell({
    cell: 'x',
    base: await reps(1, { medianMs, seed: 9 }),
    head: await reps(1, { medianMs, scale: 4, seed: 10 }),
    gate,
  });
  assert.equal(v.verdict, 'regression', 'x4 is far beyond the assumed noise: decided at the first look');
  const mid = compareCell({
    cell: 'x',
    base: await reps(1, { medianMs, seed: 11 }),
    head: await reps(1, { medianMs, scale: 1.4, seed: 12 }),
    gate,
  });
  assert.equal(
    mid.verdict,
    'pass',
    '+40% in one run each is within 25% run-to-run noise: repetitions are needed for that',
  );
  const base = await reps(1, { medianMs, seed: 30 });
  const head = await reps(1, { medianMs, scale: 2, seed: 31 });
  const first = gateCells([{ cell: 'x', base, head }], gate);
  assert.equal(first.cells[0].verdict, 'inconclusive', 'x2 in 1 vs 1 is suspicious, not certain: not a pass yet');
  assert.equal(first.cells[0].awaiting, 'confirmation');
  assert.equal(first.round, 'first');
  assert.deepEqual(
    first.confirm.map((c) => c.cell),
    ['x'],
  );
  assert.match(first.cells[0].warnings.join('\n'), /possible p99: .*needs confirmation/);
  const fresh = new Map([
    ['x', { base: await reps(1, { medianMs, seed: 32 }), head: await reps(1, { medianMs, scale: 2, seed: 33 }) }],
  ]);
  const confirmed = gateCells([{ cell: 'x', base, head }], gate, { confirm: fresh });
  assert.equal(confirmed.cells[0].verdict, 'regression', 'the fresh runs confirm it');
  assert.ok(confirmed.cells[0].metrics.find((m) => m.metric === 'p99').confirmation.combinedP < 0.05);
  const refuted = gateCells([{ cell: 'x', base, head }], gate, {
    confirm: new Map([
      ['x', { base: await reps(1, { medianMs, seed: 34 }), head: await reps(1, { medianMs, seed: 35 }) }],
    ]),
  });
  assert.equal(refuted.cells[0].verdict, 'pass', 'fresh runs without the change refute it');
});

test('gate: a large relative change below the absolute floor is not a regression', async () => {
  const floored = { ...gate, latency: { ...gate.latency, p99: { ...gate.latency.p99, floor: '2ms' } } };
  const v = compareCell({
    cell: 'x',
    base: await reps(3, { medianMs: 0.2, seed: 13 }),
    head: await reps(3, { medianMs: 0.2, scale: 2, seed: 14 }),
    gate: floored,
  });
  const p99 = v.metrics.find((m) => m.metric === 'p99');
  assert.ok(p99.ratio > 1.8);
  assert.equal(p99.status, 'pass', 'p99 ~0.6ms -> ~1.3ms stays under a 2ms floor');
  const auto = compareCell({
    cell: 'x',
    base: await reps(3, { medianMs: 0.2, seed: 13 }),
    head: await reps(3, { medianMs: 0.2, scale: 2, seed: 14 }),
    gate,
  });
  assert.equal(auto.verdict, 'regression', 'the default floor (auto: the resolution) lets a x2 at 0.6 ms fail');
});

test('gate: an improvement is reported as such, only on overwhelming evidence', async () => {
  const v = compareCell({
    cell: 'x',
    base: await reps(3, { medianMs, scale: 3, seed: 15 }),
    head: await reps(3, { medianMs, seed: 16 }),
    gate,
  });
  assert.equal(v.verdict, 'improvement');
  const mild = compareCell({
    cell: 'x',
    base: await reps(3, { medianMs, scale: 1.5, seed: 15 }),
    head: await reps(3, { medianMs, seed: 16 }),
    gate,
  });
  assert.equal(mild.verdict, 'pass', 'noise must not hand out green ribbons: x1.5 in 3 runs is not enough');
});

test('gate: an unreliable tail quantile never fails the gate alone', async () => {
  // 20k samples: p99.99 has 2 samples beyond it. Make only the extreme tail worse.
  const base = await reps(1, { medianMs, sigma: 0.3, seed: 17 });
  const head = await reps(1, { medianMs, sigma: 0.3, seed: 17 });
  head[0].percentiles = { ...head[0].percentiles, 'p99.99': head[0].percentiles['p99.99'] * 3 };
  const v = compareCell({ cell: 'x', base, head, gate });
  const tail = v.metrics.find((m) => m.metric === 'p99.99');
  assert.equal(tail.status, 'unreliable-regression');
  assert.equal(v.verdict, 'pass');
  assert.match(v.warnings.join('\n'), /too few tail samples/);
});

test('gate: errors — 0 -> 40 is a regression, 5 -> 7 is noise, zeroStaysZero catches 0 -> 1', async () => {
  const clean = await reps(1, { medianMs, seed: 18 });
  const bad = compareCell({
    cell: 'x',
    base: clean,
    head: await reps(1, { medianMs, seed: 19, errors: { http502: 40 } }),
    gate,
  });
  assert.equal(bad.verdict, 'regression');
  assert.match(bad.reasons.join(), /5xx 0 → 40/);
  const noise = compareCell({
    cell: 'x',
    base: await reps(1, { medianMs, seed: 20, errors: { refused: 5 } }),
    head: await reps(1, { medianMs, seed: 21, errors: { refused: 7 } }),
    gate,
  });
  assert.equal(noise.verdict, 'pass');
  const strict = { ...gate, errors: { ...gate.errors, zeroStaysZero: true } };
  const one = compareCell({
    cell: 'x',
    base: clean,
    head: await reps(1, { medianMs, seed: 22, errors: { reset: 1 } }),
    gate: strict,
  });
  assert.equal(one.verdict, 'regression');
});

test('gate: a head that makes k6 drop iterations is a regression (coordinated omission), not "no data"', async () => {
  // The real case: p99 1.82 -> 19 ms, 22 dropped iterations of 10k, 1 vs 1.
  const base = await reps(1, { medianMs: 0.6, sigma: 0.35, n: 10_000, rate: 500, seed: 40 });
  const head = await reps(1, { medianMs: 6.3, sigma: 0.35, n: 10_000, rate: 500, seed: 41, dropped: 22 });
  const v = compareCell({ cell: 'x', base, head, gate });
  assert.equal(v.verdict, 'regression', JSON.stringify(v.reasons));
  assert.match(v.warnings.join(), /head made k6 drop 22 iterations.*coordinated omission/);
  const errors = v.metrics.find((m) => m.metric === 'errors');
  assert.deepEqual(
    errors.classes.find((c) => c.class === 'dropped'),
    {
      class: 'dropped',
      base: 0,
      head: 22,
      group: 'dropped',
      status: 'regression',
      p: errors.groups.find((g) => g.group === 'dropped').p,
    },
  );
  // Same latency, only the drops: still red, because the drops are failed requests.
  const onlyDrops = compareCell({
    cell: 'x',
    base,
    head: await reps(1, { medianMs: 0.6, sigma: 0.35, n: 10_000, rate: 500, seed: 42, dropped: 40 }),
    gate,
  });
  assert.equal(onlyDrops.verdict, 'regression');
  assert.match(onlyDrops.reasons.join(), /dropped 0 → 40/);
});

test('gate: the documented A/A pair (13 × 502 vs 23 × 502 + 8 timeouts) is not a regression', async () => {
  const base = await reps(1, { medianMs, seed: 43, errors: { http502: 13 } });
  const head = await reps(1, { medianMs, seed: 44, errors: { http502: 23, timeout: 8 } });
  const v = gateCells([{ cell: 'x', base, head }], gate);
  // At most a candidate for the confirmation round: undecided, never a regression.
  assert.ok(
    v.cells[0].verdict === 'pass' || v.cells[0].awaiting === 'confirmation',
    JSON.stringify(v.cells[0].reasons),
  );
});

test('gate: invalid load is inconclusive, never pass or regression', async () => {
  const base = await reps(1, { medianMs, seed: 23 });
  const dropped = compareCell({
    cell: 'x',
    base: await reps(1, { medianMs, seed: 24, dropped: 500 }),
    head: base,
    gate,
  });
  assert.equal(dropped.verdict, 'inconclusive', 'the base itself was not delivered: the generator is the bottleneck');
  assert.match(dropped.reasons.join(), /dropped iterations.*even for the base/);
  const slow = compareCell({
    cell: 'x',
    base,
    head: await reps(1, { medianMs, seed: 25, rate: 1000, n: 5000 }).then((r) =>
      r.map((x) => ({ ...x, load: { ...x.load, achievedRatio: 0.5, achievedRate: 500, targetRate: 1000 } })),
    ),
    gate,
  });
  assert.equal(slow.verdict, 'inconclusive');
  const crashed = compareCell({ cell: 'x', base, head: await reps(1, { medianMs, seed: 26, k6ExitCode: 107 }), gate });
  assert.match(crashed.reasons.join(), /k6 exited with code 107/);
  const few = compareCell({ cell: 'x', base, head: await reps(1, { medianMs, seed: 27, n: 300 }), gate });
  assert.match(few.reasons.join(), /minSamples/);
});

test('gate: different profiles or machines are never compared silently', async () => {
  const a = await reps(1, { medianMs, seed: 28, profile: 'local' });
  const b = await reps(1, { medianMs, seed: 29, profile: 'metal' });
  assert.match(compareCell({ cell: 'x', base: a, head: b, gate }).reasons.join(), /profiles differ/);
  const c = await reps(1, { medianMs, seed: 30, fingerprint: 'other' });
  const v = compareCell({ cell: 'x', base: a, head: c, gate });
  assert.equal(v.verdict, 'inconclusive');
  assert.match(v.reasons.join(), /measured on different machines — their fingerprints differ/);
  // Which fields differ, by name, and how to record baselines on this runner class.
  const d = await reps(1, { medianMs, seed: 31, fingerprint: 'four-cores' });
  d.forEach((r) => Object.assign(r.meta.machine, { cpus: 4, cpuModel: 'EPYC' }));
  const w = compareCell({ cell: 'x', base: a, head: d, gate }).reasons.join();
  assert.match(
    w,
    /measured on different machines — cpuModel test → EPYC, cpus 2 → 4: .*tailgate baseline update --results/,
  );
  assert.equal(compareCell({ cell: 'x', base: a, head: c, gate, allowMachineMismatch: true }).verdict, 'pass');
});
