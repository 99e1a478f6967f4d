// The engine of record (issue 67, item 1): ingest records the engine of every output it
// reads — it knows the format it parsed — and a result that names none is never compared as
// if its engine were known: as baseline, head, a pair's side or one repetition among several,
// the cell is inconclusive, naming the run. Every run of a cell names one engine. A PR's duet
// names an engine change on the comment's first screen as any workload change, compared on
// effective values: a field the PR adds where the base relied on a default is a change.
// Held out: a k6 output ingested without its run's meta carried no workload record, and
// compared with Vegeta's baselines as like with like; a PR that set `engine: vegeta` where
// its base relied on auto moved both sides of its duet to Vegeta, and nothing said so.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ingest } from '../../src/ingest/ingest.js';
import { FORMATS } from '../../src/ingest/formats.js';
import { workloadOf } from '../../src/result/workload.js';
import { applyDefaults } from '../../src/config/defaults.js';
import { gateCells } from '../../src/compare/gate.js';
import { loadBench } from '../../src/config/load.js';
import { planMatrix } from '../../src/plan/plan.js';
import { duetPair } from '../helpers/sequential-sim.js';
import { scratchDir } from '../helpers/scratch.js';

const ROOT = new URL('../../../', import.meta.url).pathname;
const READERS = join(ROOT, 'tools', 'test', 'fixtures', 'readers');
const FIXTURE = {
  k6: join(READERS, 'k6.json'),
  vegeta: join(READERS, 'vegeta.json'),
  fortio: join(READERS, 'fortio.json'),
};

// The engine a workload record names: its tool, or k6's marks (its version, its scripts).
const engineOf = (w) => (w ? (w.tool ?? ('k6' in w || 'scripts' in w ? 'k6' : null)) : null);

test('engine of record: ingest names the engine of every output it reads, without --meta', async () => {
  for (const format of Object.keys(FORMATS)) {
    const result = await ingest({ output: FIXTURE[format], format });
    assert.equal(
      engineOf(workloadOf({ meta: result.meta })),
      format,
      `${format}: ${JSON.stringify(result.meta.workload)}`,
    );
  }
  // With a meta that names the scenario but no workload, the scenario's load is kept beside it.
  const result = await ingest({ output: FIXTURE.k6, format: 'k6', meta: { scenario: { name: 's', rate: 300 } } });
  const w = workloadOf({ meta: result.meta });
  assert.equal(engineOf(w), 'k6');
  assert.equal(w.rate, 300);
});

const gate = applyDefaults({ controllers: {}, scenarios: {}, matrices: {} }).gate;
const K6 = { k6: 'v1.4.0', scripts: 'a'.repeat(64) };
const VEGETA = { tool: 'vegeta', vegeta: 'v12.13.0' };
// A run whose workload record names `engine` (a record), or none (null: ingested without one).
function run(rep, engine) {
  const { scenario, k6, ...meta } = rep.meta;
  return {
    ...rep,
    meta: { ...meta, scenario: { name: 's' }, ...(engine ? { workload: { rate: 500, ...engine } } : {}) },
  };
}
// A duet cell of 3 pairs, p99 alike on both sides; engines[side][i]: pair i's record.
function cell(engines) {
  const pairs = [0, 1, 2].map((i) => duetPair({ pair: i + 1, d: [0.01, -0.01, 0][i], withinSd: 0.03 }));
  return {
    cell: 'traefik/default/steady',
    base: pairs.map((p, i) => run(p.base, engines.base[i])),
    head: pairs.map((p, i) => run(p.head, engines.head[i])),
  };
}
const judge = (c, mode) => gateCells([c], gate, { mode }).cells[0];
const said = (v) => [...v.reasons, ...v.warnings].join(' | ');

test('engine of record: like with like when every run names one engine (the control)', () => {
  assert.equal(judge(cell({ base: [K6, K6, K6], head: [K6, K6, K6] }), 'paired').verdict, 'pass');
  assert.equal(
    judge(cell({ base: [VEGETA, VEGETA, VEGETA], head: [VEGETA, VEGETA, VEGETA] }), 'baseline').verdict,
    'pass',
  );
  // Two engines in one cell: not like with like (as before).
  const mixed = judge(cell({ base: [VEGETA, VEGETA, VEGETA], head: [K6, K6, K6] }), 'baseline');
  assert.equal(mixed.verdict, 'inconclusive');
  assert.match(said(mixed), /load tool vegeta → k6/);
});

test('engine of record: a head without an engine against baselines that name Vegeta is inconclusive, named', () => {
  const v = judge(cell({ base: [VEGETA, VEGETA, VEGETA], head: [null, null, null] }), 'baseline');
  assert.equal(v.verdict, 'inconclusive', said(v));
  assert.match(said(v), /engine/);
  assert.match(said(v), /head/);
});

test('engine of record: a baseline without an engine is not compared with a head that names one', () => {
  const v = judge(cell({ base: [null, null, null], head: [K6, K6, K6] }), 'baseline');
  assert.equal(v.verdict, 'inconclusive', said(v));
  assert.match(said(v), /engine/);
  assert.match(said(v), /base/);
});

test("engine of record: one pair's side without an engine makes the paired cell inconclusive, naming the pair", () => {
  const v = judge(cell({ base: [K6, K6, K6], head: [K6, null, K6] }), 'paired');
  assert.equal(v.verdict, 'inconclusive', said(v));
  assert.match(said(v), /engine/);
  assert.match(said(v), /pair 2/);
});

test('engine of record: every repetition names the engine — not only the first that has a record', () => {
  // The first base run names Vegeta, the second none: today's reference was the first.
  const v = judge(cell({ base: [VEGETA, null, VEGETA], head: [VEGETA, VEGETA, VEGETA] }), 'baseline');
  assert.equal(v.verdict, 'inconclusive', said(v));
  assert.match(said(v), /engine/);
  assert.match(said(v), /base/);
  // No run names one: two unknowns are not one known engine either.
  const none = judge(cell({ base: [null, null, null], head: [null, null, null] }), 'paired');
  assert.equal(none.verdict, 'inconclusive', said(none));
  assert.match(said(none), /engine/);
});

// A PR's duet: the base and the head checkouts of the kind fixture (kube-duet.test.js).
const PR_DUET = `  pr-duet: { target: kind, profile: kind-offline, controllers: [traefik, haproxy-ingress], tunings: [default, tuned], scenarios: [steady], compare: concurrent }\n`;
function checkouts(edit = (s) => s, baseEdit = (s) => s) {
  const root = scratchDir('tg-engine-duet-');
  mkdirSync(join(root, 'base'));
  const text = readFileSync(join(ROOT, 'tools', 'test', 'fixtures', 'kind', 'bench.yaml'), 'utf8') + PR_DUET;
  writeFileSync(join(root, 'base', 'bench.yaml'), baseEdit(text));
  writeFileSync(join(root, 'bench.yaml'), edit(text));
  cpSync(join(ROOT, 'charts', 'controllers', 'traefik', 'values.yaml'), join(root, 'traefik-head.yaml'));
  return { base: loadBench(join(root, 'base', 'bench.yaml')), head: loadBench(join(root, 'bench.yaml')) };
}
const STEADY = 'steady: { script: steady, rate: 200,';
const changesOf = ({ base, head }) => planMatrix(head, 'pr-duet', { duetBase: base }).workloadChange ?? [];

test("engine of record: a PR's duet that sets an engine where its base relied on the default names the change", () => {
  assert.deepEqual(changesOf(checkouts()), []);
  const set = changesOf(checkouts((t) => t.replace(STEADY, `${STEADY} engine: vegeta,`)));
  assert.ok(
    set.some((c) => /^scenario "steady": engine auto → vegeta$/.test(c)),
    JSON.stringify(set),
  );
  // The file's engine is the scenario's default: written either way, the same effective engine.
  const same = changesOf(
    checkouts(
      (t) => t.replace(STEADY, `${STEADY} engine: vegeta,`),
      (t) => t.replace('kind: Bench\n', 'kind: Bench\nengine: vegeta\n'),
    ),
  );
  assert.deepEqual(same, []);
  // Writing the default out is no change.
  assert.deepEqual(changesOf(checkouts((t) => t.replace(STEADY, `${STEADY} engine: auto,`))), []);
});

test("engine of record: a PR's duet compares its workload on effective values — a matrix's duration over the scenario's", () => {
  const shorter = changesOf(
    checkouts((t) =>
      t.replace(
        'scenarios: [steady], compare: concurrent }',
        'scenarios: [steady], compare: concurrent, duration: 5s }',
      ),
    ),
  );
  assert.ok(
    shorter.some((c) => /^scenario "steady": duration 10s → 5s$/.test(c)),
    JSON.stringify(shorter),
  );
});
