// The base's design of record for pairs (issue 59, item 1): a duet cell's repetitions and
// maxRepetitions — its looks and their spending — come from the base commit's bench.yaml,
// as the thresholds do, never from the results' meta.sequential (the runner writes it from
// the head's). A head that changes them is named with the other rule changes, and a cell is
// never judged on fewer pairs than the base's design asks.
// Held out: a PR that cut its own maxRepetitions 8 → 4 ran 4 pairs of a ×1.12 p99, was tested
// at the final look of its own design and passed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { baseGate } from '../../src/compare/base-policy.js';
import { gateCells } from '../../src/compare/gate.js';
import { pairsOfRecord } from '../../src/compare/pairs-of-record.js';
import { applyDefaults } from '../../src/config/defaults.js';
import { loadBench, parseBench } from '../../src/config/load.js';
import { planMatrix } from '../../src/plan/plan.js';
import { duetPair } from '../helpers/sequential-sim.js';
import { committedRepo } from '../helpers/git-repo.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const defaults = applyDefaults({ controllers: {}, scenarios: {}, matrices: {} }).gate;
const GATE = {
  ...defaults,
  assumedDuetCv: 0.07,
  latency: { ...defaults.latency, p99: { ...defaults.latency.p99, threshold: '5%' } },
};
// The base's matrix: 3 pairs, up to 8 while undecided.
const RECORD = { minPairs: 3, maxPairs: 8, sequential: true };

// A duet cell's pairs with these p99 log ratios, recorded with the head's design `meta`.
function cell(ds, meta) {
  const base = [];
  const head = [];
  ds.forEach((d, i) => {
    const p = duetPair({ pair: i + 1, d, sequential: meta, withinSd: 0.03 });
    base.push(p.base);
    head.push(p.head);
  });
  return { cell: 'traefik/default/steady', base, head };
}
const judge = (c, record) => gateCells([c], GATE, { mode: 'paired', record }).cells[0];
// ×1.12 p99, pair by pair, noisy at first: clear over 8 pairs, not over 4 (×1.11, p 0.12).
const DS = [0.3, -0.1, 0.25, -0.05, 0.15, 0.1, 0.12, 0.11];

test("the base's design of record for pairs: a head that cut maxRepetitions 8 → 4 is judged by the base's 3…8, not its own", () => {
  const own = cell(DS.slice(0, 4), { minPairs: 3, maxPairs: 4 });
  // Its own design: 4 pairs is its budget, the final look — and it passes (the hole).
  assert.equal(judge(own, null).verdict, 'pass');
  assert.equal(judge(own, null).sequential.stopped, false);
  // The base's: 4 of ≤ 8 pairs that do not clearly pass — inconclusive, named.
  const v = judge(own, RECORD);
  assert.equal(v.verdict, 'inconclusive');
  assert.deepEqual(v.sequential, { minPairs: 3, maxPairs: 8, pairs: 4, looks: 5, stopped: true, level: 0.045 });
  assert.match(v.reasons.join(' '), /stopped after 4 of ≤ 8 pairs, which do not clearly pass it/);
  // Run to the base's budget, the same change is red.
  assert.equal(judge(cell(DS, { minPairs: 3, maxPairs: 8 }), RECORD).verdict, 'regression');
});

test("the base's design of record for pairs: a cell with fewer pairs than the base's repetitions is not judged, naming both", () => {
  // The head set repetitions 2, no looks: 2 pairs of a clear ×1.5.
  const v = judge(cell([0.4, 0.41], null), RECORD);
  assert.equal(v.verdict, 'inconclusive');
  assert.match(v.reasons.join(' '), /judged on 2 pairs, fewer than the 3 the base's design asks/);
  // A base without looks asks its repetitions too.
  assert.match(
    judge(cell([0.01, 0.0], null), { minPairs: 3, maxPairs: 3, sequential: false }).reasons.join(' '),
    /judged on 2 pairs, fewer than the 3/,
  );
});

test("the base's design of record for pairs: pairs beyond the base's budget are not judged, the first ones are", () => {
  // The head raised maxRepetitions to 12 and ran them all; the base's design stops at 8.
  const wide = cell([...DS, 0.3, 0.3, 0.3, 0.3], { minPairs: 3, maxPairs: 12 });
  const v = judge(wide, RECORD);
  assert.equal(v.sequential.pairs, 8);
  assert.equal(v.sequential.maxPairs, 8);
  assert.ok(v.warnings.some((w) => /^pairs 9, 10, 11, 12 not judged: the base's design runs at most 8 pairs/.test(w)));
  // The base had no looks, the head's runs had: its first 3 pairs, fixed, at the full α.
  const fixed = judge(cell(DS.slice(0, 5), { minPairs: 3, maxPairs: 8 }), {
    minPairs: 3,
    maxPairs: 3,
    sequential: false,
  });
  assert.equal(fixed.sequential, undefined);
  assert.equal(fixed.design.pairs, 3);
});

const bench = (pairs) => `apiVersion: tailgate/v1
kind: Bench
controllers:
  traefik:
    type: helm
    chart: { repo: https://traefik.github.io/charts, name: traefik, version: 41.3.0 }
scenarios:
  steady: { script: steady, rate: 300, duration: 45s }
profiles:
  gha: { runner: ubuntu-24.04 }
matrices:
  pr: { target: kind, profile: gha, controllers: [traefik], scenarios: [steady], compare: concurrent, ${pairs} }
`;

test("the base's design of record for pairs: read from the base commit, and what the head changes in it is named", () => {
  const { dir, base } = committedRepo('tg-pairs-record-', { 'bench.yaml': bench('repetitions: 3, maxRepetitions: 8') });
  writeFileSync(join(dir, 'bench.yaml'), bench('repetitions: 2, maxRepetitions: 4'));
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    const head = loadBench('bench.yaml');
    const from = baseGate({
      ref: base,
      configFile: 'bench.yaml',
      matrix: 'pr',
      headGate: head.matrices.pr.gate,
      headMatrix: head.matrices.pr,
    });
    assert.deepEqual(from.record, RECORD);
    assert.deepEqual(from.changes, ['matrix pr repetitions 3 → 2', 'matrix pr maxRepetitions 8 → 4']);
  } finally {
    process.chdir(cwd);
  }
  // A duet loaded one side at a time, or interleaved pairs, has no looks: its repetitions.
  assert.deepEqual(pairsOfRecord({ repetitions: 3, compare: 'paired' }), {
    minPairs: 3,
    maxPairs: 3,
    sequential: false,
  });
  assert.equal(pairsOfRecord(null), null);
});

test("the base's design of record for pairs: a PR's duet runs the base's pairs, whatever the head's matrix says", () => {
  const head = parseBench(bench('repetitions: 2, maxRepetitions: 4'), 'bench.yaml');
  const base = parseBench(bench('repetitions: 3, maxRepetitions: 8'), 'base/bench.yaml');
  const plan = planMatrix(head, 'pr', { duetBase: base });
  assert.deepEqual(plan.sequential, { minPairs: 3, maxPairs: 8 });
  assert.deepEqual(
    plan.cells.map((c) => [c.repetition, Boolean(c.optional)]),
    [1, 2, 3, 4, 5, 6, 7, 8].map((r) => [r, r > 3]),
  );
  // The head's own plan (no base to run against) keeps its own.
  assert.deepEqual(planMatrix(head, 'pr').sequential, { minPairs: 2, maxPairs: 4 });
});

test("the base's design of record for pairs: a PR duet loaded one side at a time (unfair node share) keeps the duet's budget — all its pairs judged, not cut to repetitions", async () => {
  const { holdToRecord } = await import('../../src/compare/pairs-of-record.js');
  const record = pairsOfRecord({ repetitions: 3, maxRepetitions: 10, compare: 'concurrent' });
  const run = (role, i) => ({
    meta: { alternate: { role }, pair: i + 1, sequential: { minPairs: 3, maxPairs: 10, looks: i - 2 } },
  });
  const pairs = Array.from({ length: 9 }, (_, i) => ({ base: run('base', i), head: run('head', i) }));
  const p = { base: pairs.map((x) => x.base), head: pairs.map((x) => x.head), pairs };
  const held = holdToRecord(p, record);
  assert.deepEqual(held.meta, { minPairs: 3, maxPairs: 10 }, 'tested with the sequential design');
  assert.equal(p.pairs.length, 9, 'no pair cut (before: cut to the first 3)');
});
