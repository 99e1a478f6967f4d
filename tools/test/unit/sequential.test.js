// Sequential pairs for duet cells (maxRepetitions): the interim rule's three answers, the
// gate's adjustment of a sequential cell (red on a clear regression, never a candidate),
// validation of the key, and the plan's optional repetitions and cost range.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyDefaults } from '../../src/config/defaults.js';
import { parseBench } from '../../src/config/load.js';
import { gateCells } from '../../src/compare/gate.js';
import { familyBound, interimLook } from '../../src/compare/sequential.js';
import { LOOK_P, sequentialDesign, sequentialP } from '../../src/compare/sequential-gate.js';
import { planMatrix } from '../../src/plan/plan.js';
import { describeCost, estimateCost } from '../../src/plan/cost.js';
import { duetPair } from '../helpers/sequential-sim.js';

const defaults = applyDefaults({ controllers: {}, scenarios: {}, matrices: {} }).gate;
const GATE = {
  ...defaults,
  assumedDuetCv: 0.07,
  latency: { ...defaults.latency, p99: { ...defaults.latency.p99, threshold: '5%' } },
};

// A cell's pairs with these p99 log ratios (and 502s per pair, [base, head]).
function cell(ds, { errors = () => [0, 0], sequential = null } = {}) {
  const base = [];
  const head = [];
  ds.forEach((d, i) => {
    const p = duetPair({ pair: i + 1, d, errors: errors(i), sequential, withinSd: 0.03 });
    base.push(p.base);
    head.push(p.head);
  });
  return { base, head };
}

test('interimLook: a clear no-op stops as a pass, saying how far within the threshold', () => {
  const look = interimLook(cell([0.01, -0.02, 0.0, 0.015]), GATE, { family: 14 });
  assert.equal(look.decision, 'stop-pass');
  assert.equal(look.pairs, 4);
  assert.match(look.why, /^p99 ×1\.0\d, clearly within 5%$/);
});

test('interimLook: a regression beyond doubt stops as one; a large but uncertain one continues', () => {
  const clear = interimLook(cell([0.4, 0.41, 0.39, 0.4]), GATE, { family: 14 });
  assert.equal(clear.decision, 'stop-regression');
  assert.match(clear.why, /^p99 ×1\.49, p=1\.8e-6 ≤ 7\.1e-5$/);
  // ×1.10 with 3 pairs of sd 0.07: suspicious, not decided — more pairs.
  const open = interimLook(cell([0.03, 0.15, 0.1]), GATE, { family: 14 });
  assert.equal(open.decision, 'continue');
  assert.match(open.why, /open: p99 ×1\.1/);
  // The bar is LOOK_P over the PR's family: one test alone stops on less.
  const p = (family) => interimLook(cell([0.15, 0.13, 0.14, 0.16]), GATE, { family }).decision;
  assert.equal(p(1), 'stop-regression');
  assert.equal(p(1e6), 'continue');
});

test('interimLook: errors near significance keep a cell going; errors beyond doubt stop it red', () => {
  const flat = [0.0, 0.01, -0.01, 0.005];
  assert.equal(interimLook(cell(flat), GATE).decision, 'stop-pass');
  const some = interimLook(cell(flat, { errors: () => [3, 6] }), GATE);
  assert.equal(some.decision, 'continue');
  assert.match(some.why, /errors 5xx 12 → 24/);
  const many = interimLook(cell(flat, { errors: () => [2, 40] }), GATE);
  assert.equal(many.decision, 'stop-regression');
  assert.match(many.why, /errors 5xx 8 → 160/);
  // One error on the head's side cannot reach α: it does not hold a clear cell back.
  assert.equal(interimLook(cell(flat, { errors: (i) => [0, i === 0 ? 1 : 0] }), GATE).decision, 'stop-pass');
  // Without futility stops only a regression ends a cell early.
  assert.equal(interimLook(cell(flat), GATE, { futility: false }).decision, 'continue');
});

test('familyBound: blocking latency quantiles and every error group per cell, propagation where routes are edited', () => {
  const cells = [
    { key: 'a/d/steady' },
    { key: 'a/d/steady' },
    { key: 'a/d/routes', scenario: { faults: [{ type: 'route-change' }] } },
    { key: 'a/d/pod-kill', scenario: { faults: [{ type: 'pod-kill' }] } },
  ];
  // p99 + 6 error groups per cell; 3 propagation quantiles for the routed one, failover
  // for the one that kills pods.
  assert.equal(familyBound(cells, defaults), 7 + 10 + 8);
});

test('gate: a sequential cell with a clear regression is red, decided by its own pairs (no confirmation round)', () => {
  const design = { minPairs: 3, maxPairs: 8 };
  const { base, head } = cell([0.4, 0.41, 0.39, 0.4], { sequential: design });
  const v = gateCells([{ cell: 'haproxy-ingress/default/steady', base, head }], GATE, { mode: 'paired' });
  const [c] = v.cells;
  assert.equal(c.verdict, 'regression');
  assert.deepEqual(v.confirm, []);
  assert.deepEqual(c.sequential, { minPairs: 3, maxPairs: 8, pairs: 4, looks: 5, stopped: true, level: 0.045 });
  const p99 = c.metrics.find((m) => m.metric === 'p99');
  assert.equal(p99.look, 'sequential');
  assert.ok(p99.detectable.ratio80 > 1 && p99.detectable.ratio80 < 1.15, `sees ×${p99.detectable.ratio80}`);
});

test('gate: a sequential cell is never a candidate; its p-values are adjusted for its looks', () => {
  // ×1.10 over 8 pairs — fixed, a candidate for a round; sequential, decided now.
  const ds = [0.03, 0.15, 0.1, 0.08, 0.12, 0.06, 0.11, 0.09];
  const fixed = gateCells([{ cell: 'c', ...cell(ds.slice(0, 3)) }], GATE, { mode: 'paired' });
  assert.equal(fixed.confirm.length, 1, 'the fixed design asks for a round');
  const seq = gateCells([{ cell: 'c', ...cell(ds, { sequential: { minPairs: 3, maxPairs: 8 } }) }], GATE, {
    mode: 'paired',
  });
  assert.deepEqual(seq.confirm, []);
  assert.equal(seq.cells[0].verdict, 'regression');
  // Final look: α − 5 looks × LOOK_P of α; an interim stop: LOOK_P of it.
  const alpha = 0.05;
  assert.equal(sequentialDesign(cell(ds).base, cell(ds).head, null, alpha), null, 'no meta: the fixed design');
  const meta = { minPairs: 3, maxPairs: 8 };
  const withMeta = cell(ds, { sequential: meta });
  const d8 = sequentialDesign(withMeta.base, withMeta.head, null, alpha);
  assert.equal(sequentialP(0.009, d8, alpha), (0.009 * alpha) / (alpha - 5 * LOOK_P));
  const d4 = sequentialDesign(withMeta.base.slice(0, 4), withMeta.head.slice(0, 4), null, alpha);
  assert.equal(sequentialP(0.0004, d4, alpha), (0.0004 * alpha) / LOOK_P);
  assert.equal(sequentialP(0.3, d4, alpha), 1);
  // A meta that allows no look (maxPairs = minPairs) is the fixed design.
  assert.equal(sequentialDesign(cell(ds, { sequential: { minPairs: 3, maxPairs: 3 } }).base, [], null, alpha), null);
});

test('gate: a cell short of its budget passes only on pairs that clearly pass; one that lost a pair undecided is not passed', () => {
  const sequential = { minPairs: 3, maxPairs: 8 };
  const gate = (c) => gateCells([{ cell: 'c', ...c }], GATE, { mode: 'paired' }).cells[0];
  // ×1.10 after 3 pairs: the runner would have gone on; its 4th pair was lost and the job ended.
  const lost = gate(cell([0.03, 0.15, 0.1], { sequential }));
  assert.equal(lost.verdict, 'inconclusive');
  assert.match(
    lost.reasons.join(' '),
    /stopped after 3 of ≤ 8 pairs, which do not clearly pass it \(open: p99 ×1\.1\d\)/,
  );
  // A clear no-op stopped at its 4th pair: the stop the design assumes — passed.
  assert.equal(gate(cell([0.01, -0.02, 0.0, 0.015], { sequential })).verdict, 'pass');
  // Pair 7 lost, pair 8 run: it ran to its budget — the final look's share, not an interim one.
  const all = cell([0.01, -0.02, 0.0, 0.015, 0.02, -0.01, 0.0, 0.01], { sequential });
  const ran = gate({ base: all.base.filter((_, i) => i !== 6), head: all.head.filter((_, i) => i !== 6) });
  assert.equal(ran.verdict, 'pass');
  assert.equal(ran.sequential.stopped, false);
  assert.equal(ran.sequential.pairs, 7);
});

const BENCH = (matrix) => `apiVersion: tailgate/v1
kind: Bench
controllers:
  traefik:
    type: helm
    chart: { repo: https://traefik.github.io/charts, name: traefik, version: 41.3.0 }
scenarios:
  steady: { script: steady, rate: 300, duration: 45s }
  pod-kill: { script: steady, rate: 300, duration: 45s, faults: [{ type: pod-kill, every: 15s }] }
profiles:
  gha: { runner: ubuntu-24.04 }
matrices:
  pr: { target: kind, profile: gha, controllers: [traefik], scenarios: [steady, pod-kill], ${matrix} }
`;

const refused = (matrix) => {
  try {
    parseBench(BENCH(matrix), 'bench.yaml');
  } catch (e) {
    return e.details;
  }
  return [];
};

test('config: maxRepetitions is refused where it has no meaning, each problem naming file, line and field', () => {
  assert.deepEqual(refused('repetitions: 3, compare: concurrent, maxRepetitions: 8'), []);
  const paired = refused('repetitions: 3, compare: paired, maxRepetitions: 8');
  assert.equal(paired.length, 1, paired.join('\n'));
  assert.match(
    paired[0],
    /^bench\.yaml:\d+:\d+: matrices\.pr\.maxRepetitions: applies to compare: concurrent only .*not compare: paired$/,
  );
  assert.match(
    refused('repetitions: 5, compare: concurrent, maxRepetitions: 4')[0],
    /matrices\.pr\.maxRepetitions: must be at least repetitions \(5\)/,
  );
  assert.match(
    refused('repetitions: 3, compare: concurrent, alternate: true, maxRepetitions: 6')[0],
    /matrices\.pr\.maxRepetitions: a duet loaded one side at a time \(alternate\)/,
  );
  assert.match(refused('repetitions: 3, compare: concurrent, maxRepetitions: 21')[0], /maxRepetitions: must be <= 20/);
  // 0.99 confidence: α 0.01 allows 5 looks of 0.001 (half of α).
  const strict = refused('repetitions: 3, compare: concurrent, maxRepetitions: 9, gate: { confidence: 0.99 }');
  assert.match(strict[0], /6 looks beyond repetitions \(3\) would spend 0\.006 of α 0\.010 .*maxRepetitions ≤ 8/);
  // All at once: two matrices, two problems.
  const text = BENCH('repetitions: 3, compare: paired, maxRepetitions: 8').replace(
    'matrices:\n',
    'matrices:\n  nightly: { target: kind, profile: gha, controllers: [traefik], scenarios: [steady], maxRepetitions: 4 }\n',
  );
  assert.throws(
    () => parseBench(text, 'bench.yaml'),
    (e) => e.details.filter((d) => /maxRepetitions: applies to compare: concurrent only/.test(d)).length === 2,
  );
});

test('plan: repetitions beyond `repetitions` are optional and the cost is a range; without maxRepetitions nothing changes', () => {
  const seq = planMatrix(
    parseBench(BENCH('repetitions: 3, compare: concurrent, maxRepetitions: 8'), 'bench.yaml'),
    'pr',
  );
  assert.equal(seq.cells.length, 16);
  assert.deepEqual(
    seq.cells.filter((c) => c.optional).map((c) => c.repetition),
    [4, 4, 5, 5, 6, 6, 7, 7, 8, 8],
  );
  assert.ok(seq.cells.every((c) => c.sequential.minPairs === 3 && c.sequential.maxPairs === 8));
  const cost = estimateCost(seq);
  assert.equal(cost.least.runs, 6);
  assert.ok(cost.least.longestJobS < cost.longestJobS);
  assert.match(describeCost(seq, cost), /^6–16 runs in 1 job .*longest job ≈ \d+ min–\d+ min.*only while undecided/);
  // --repetitions asks for a fixed number of pairs.
  const fixedByFlag = planMatrix(
    parseBench(BENCH('repetitions: 3, compare: concurrent, maxRepetitions: 8'), 'bench.yaml'),
    'pr',
    { repetitions: 3 },
  );
  assert.equal(fixedByFlag.cells.length, 6);
  const plain = planMatrix(parseBench(BENCH('repetitions: 3, compare: concurrent'), 'bench.yaml'), 'pr');
  assert.equal(plain.cells.length, 6);
  assert.ok(plain.cells.every((c) => c.optional === undefined && c.sequential === undefined));
  assert.equal(plain.sequential, undefined);
  assert.doesNotMatch(describeCost(plain), /–/);
});
