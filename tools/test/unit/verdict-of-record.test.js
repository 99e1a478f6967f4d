// The verdict of record (issue 51): the gate fails closed on what it does not see. Each
// class was a green verdict on evidence never measured on 10f90aa: a planned cell with no
// results (duet and paired mode), a cell the PR dropped from its own matrix, a first look
// awaiting its round published as success, two gates overwriting each other, a migration
// over the scenarios that happened to be measured.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.js';
import { makeRunDir } from '../helpers/run-dir.js';
import { scratchDir } from '../helpers/scratch.js';
import { committedRepo } from '../helpers/git-repo.js';
import { planOfRecord } from '../../src/plan/of-record.js';
import { parseBench } from '../../src/config/load.js';
import { NO_RESULTS } from '../../src/compare/accounting.js';
import { publish } from '../helpers/fake-github.js';
import { migrationDoc, migrationFromCells } from '../../src/compare/migration.js';
import { applyDefaults } from '../../src/config/defaults.js';
import { collectRun } from '../../src/result/run-dir.js';
import { localBench as bench } from '../helpers/local-bench.js';

const repo = (baseBench) => committedRepo('tg-record-', { 'bench.yaml': baseBench });

const STEADY = 'nginx-reload/default/steady';
const KILL = 'nginx-reload/default/pod-kill';
const same = (seeds) => seeds.map((seed) => ({ medianMs: 4, seed }));

async function sides(root, cells) {
  await makeRunDir(Object.fromEntries(cells.map(([k, s]) => [k, same(s)])), join(root, 'base'));
  await makeRunDir(Object.fromEntries(cells.map(([k, s]) => [k, same(s.map((x) => x + 100))])), join(root, 'head'));
  return root;
}

async function gateIn(dir, results, extra = []) {
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    const out = join(dir, `gate-${Math.random().toString(36).slice(2)}`);
    const r = await runCli(['gate', '--mode', 'concurrent', '--results', results, '--out', out, ...extra]);
    const read = (f) => JSON.parse(readFileSync(join(out, f), 'utf8'));
    return { ...r, doc: read('verdict.json'), meta: read('comment/meta.json'), out };
  } finally {
    process.chdir(cwd);
  }
}

test('a planned cell whose bench job left nothing is inconclusive and named — duet and paired mode, not a pass by absence', async () => {
  const { dir, base } = repo(bench('steady, pod-kill'));
  // The pod-kill job died before its upload: only steady's results arrived.
  const results = await sides(join(dir, 'results'), [[STEADY, [1, 2]]]);
  const r = await gateIn(dir, results, ['--matrix', 'pr', '--base-ref', base]);
  assert.equal(r.code, 3, r.out);
  const lost = r.doc.cells.find((c) => c.cell === KILL);
  assert.equal(lost?.verdict, 'inconclusive');
  assert.equal(lost.reasons[0], NO_RESULTS);
  assert.equal(r.doc.plannedCells, 2);
  assert.match(readFileSync(join(r.out, 'comment', 'comment.md'), 'utf8'), /no results from its bench job/);
  // Without a base ref (workflow_dispatch, a laptop): the head's matrix is the plan.
  const local = await gateIn(dir, results, ['--matrix', 'pr']);
  assert.equal(local.code, 3);
});

test('results of a cell no plan names are not judged, and are named', async () => {
  const { dir, base } = repo(bench('steady'));
  const results = await sides(join(dir, 'results'), [
    [STEADY, [1, 2]],
    ['nginx-reload/default/pod-kill', [3, 4]],
  ]);
  const r = await gateIn(dir, results, ['--matrix', 'pr', '--base-ref', base]);
  assert.equal(r.code, 0, r.out);
  assert.deepEqual(
    r.doc.cells.map((c) => c.cell),
    [STEADY],
  );
  assert.deepEqual(r.doc.unplanned, [KILL]);
  assert.match(
    readFileSync(join(r.out, 'comment', 'comment.md'), 'utf8'),
    /no plan names: `nginx-reload\/default\/pod-kill` — not judged/,
  );
});

test("a PR that drops a cell from its own matrix still answers for it: the base's matrix is planned and judged", async () => {
  const { dir, base } = repo(bench('steady, pod-kill'));
  writeFileSync(join(dir, 'bench.yaml'), bench('steady')); // the PR's matrix leaves pod-kill out
  const cfg = parseBench(bench('steady'));
  const baseCfg = { matrices: { pr: { controllers: ['nginx-reload'], scenarios: ['steady', 'pod-kill'] } } };
  const plan = planOfRecord(cfg, 'pr', { base: baseCfg });
  assert.deepEqual([...new Set(plan.cells.map((c) => c.key))], [STEADY, KILL], 'the plan job runs pod-kill too');
  assert.deepEqual(plan.removed, []);
  // The PR's own plan (no base) would not run it, and its gate would not miss it.
  assert.deepEqual([...new Set(planOfRecord(cfg, 'pr').cells.map((c) => c.key))], [STEADY]);
  // Its bench job ran only what its own matrix named: the dropped cell is missed, by name.
  const results = await sides(join(dir, 'results'), [[STEADY, [1, 2]]]);
  const r = await gateIn(dir, results, ['--matrix', 'pr', '--base-ref', base]);
  assert.equal(r.code, 3, r.out);
  assert.equal(r.doc.cells.find((c) => c.cell === KILL)?.verdict, 'inconclusive');
});

test('a base cell the head no longer defines is named as removed, visibly — nothing of it is left to regress', async () => {
  const { dir, base } = repo(bench('steady, pod-kill'));
  // The PR deletes the scenario itself (not only its matrix entry).
  writeFileSync(join(dir, 'bench.yaml'), bench('steady').replace(/ {2}pod-kill: .*\n/, ''));
  const results = await sides(join(dir, 'results'), [[STEADY, [1, 2]]]);
  const r = await gateIn(dir, results, ['--matrix', 'pr', '--base-ref', base]);
  assert.equal(r.code, 0, r.out);
  assert.deepEqual(
    r.doc.removed.map((x) => x.key),
    [KILL],
  );
  assert.match(r.doc.removed[0].why, /no longer defines its scenario "pod-kill"/);
  const md = readFileSync(join(r.out, 'comment', 'comment.md'), 'utf8');
  assert.match(md, /This PR removes 1 cell from the gated matrix `pr`\*\*: `nginx-reload\/default\/pod-kill`/);
});

test('a first look awaiting its round is never published as success; a gate that left no comment gets a failed check', async () => {
  const root = scratchDir('tg-record-pending-');
  const cell = 'nginx-reload/default/churn';
  const reps = (scale, seeds) => ({ [cell]: seeds.map((seed) => ({ medianMs: 4, scale, seed })) });
  await makeRunDir(reps(1, [1, 2]), join(root, 'r', 'base'));
  await makeRunDir(reps(3, [4, 6]), join(root, 'r', 'head'));
  const cwd = process.cwd();
  process.chdir(root);
  let first;
  try {
    first = await runCli(['gate', '--mode', 'paired', '--results', 'r', '--out', 'g']);
  } finally {
    process.chdir(cwd);
  }
  assert.equal(first.code, 3, first.out);
  // The round never reported: this first look is all the commenting workflow finds.
  const { comment, check } = await publish(join(root, 'g', 'comment'));
  assert.equal(check.conclusion, 'failure');
  assert.equal(check.name, 'tailgate');
  assert.match(comment.body, /^<!-- tailgate:sticky-comment -->\n⚠️ \*\*No verdict of record/);
  // A gate whose job failed before its upload: a failed check of its own, never none.
  const none = await publish(join(root, 'nothing-here'), 'pr-routes');
  assert.equal(none.check.name, 'tailgate (pr-routes)');
  assert.equal(none.check.conclusion, 'failure');
  assert.match(none.comment.body, /^<!-- tailgate:sticky-comment:pr-routes -->\n### tailgate 💥 no verdict/);
});

test("two gates in one run keep apart: each its own marker and check, and one gate's artifact is refused as the other's", async () => {
  const { dir, base } = repo(bench('steady'));
  const results = await sides(join(dir, 'results'), [[STEADY, [1, 2]]]);
  const r = await gateIn(dir, results, ['--matrix', 'pr', '--base-ref', base]);
  assert.equal(r.meta.gate, 'pr');
  const routes = repo(bench('steady').replace('  pr: {', '  pr-routes: {'));
  const r2 = await gateIn(routes.dir, await sides(join(routes.dir, 'results'), [[STEADY, [1, 2]]]), [
    '--matrix',
    'pr-routes',
    '--base-ref',
    routes.base,
  ]);
  assert.equal(r2.meta.gate, 'pr-routes');
  assert.match(
    readFileSync(join(r2.out, 'comment', 'comment.md'), 'utf8'),
    /^<!-- tailgate:sticky-comment:pr-routes -->/,
  );
  const published = await publish(join(r2.out, 'comment'), 'pr-routes');
  assert.equal(published.check.name, 'tailgate (pr-routes)');
  assert.equal(published.check.conclusion, 'success');
  await assert.rejects(
    publish(join(r.out, 'comment'), 'pr-routes'),
    /it is gate "pr"'s, and this job publishes gate "pr-routes"'s/,
  );
});

test('a migration verdict covers every planned scenario: one the candidate was refused in makes it inconclusive, named', async () => {
  const root = scratchDir('tg-record-migrate-');
  const fromKill = 'a/default/pod-kill';
  const fromSteady = 'a/default/steady';
  await makeRunDir({ [fromSteady]: same([1, 2, 3]), [fromKill]: same([4, 5, 6]) }, join(root, 'base'));
  await makeRunDir(
    { [fromSteady]: same([11, 12, 13]), [fromKill]: [{ cellError: 'the candidate refused the values' }] },
    join(root, 'head'),
  );
  const gate = applyDefaults({ controllers: {}, scenarios: {}, matrices: {} }).gate;
  const found = migrationFromCells(collectRun(join(root, 'base')), collectRun(join(root, 'head')), 'b', 'x', [
    fromSteady,
    fromKill,
    'a/default/never-run',
  ]);
  const doc = migrationDoc({ ...found, gate, margins: undefined, from: 'a', candidate: 'b', table: true });
  assert.equal(doc.overall, 'inconclusive');
  assert.equal(doc.exitCode, 3);
  const un = doc.cells.filter((c) => c.unmeasured).map((c) => [c.cell, c.reasons[0]]);
  assert.deepEqual(un, [
    ['b/default/pod-kill', 'the candidate was not measured: the candidate refused the values'],
    ['b/default/never-run', 'the candidate has no results for it (not measured)'],
  ]);
  const { migrationMarkdown } = await import('../../src/report/migration.js');
  const md = migrationMarkdown(doc);
  assert.match(md, /⚠️ inconclusive/);
  assert.match(md, /Not measured, so not decided.*\n\n- `b` default\/pod-kill: the candidate was not measured/);
  assert.match(md, /- `b` default\/never-run/);
});

test('init writes the wiring it recommends: one gate per matrix and a commenter that names them — examples/adopter is that output', async () => {
  const dir = scratchDir('tg-record-init-');
  const r = await runCli(['init', '--controller', 'haproxy-ingress', '--dir', dir]);
  assert.equal(r.code, 0, r.out);
  const ROOT = new URL('../../../', import.meta.url).pathname;
  for (const f of ['tailgate.yml', 'tailgate-comment.yml']) {
    const text = readFileSync(join(dir, '.github', 'workflows', f), 'utf8');
    assert.equal(text, readFileSync(join(ROOT, 'examples', 'adopter', '.github', 'workflows', f), 'utf8'), f);
  }
  const wf = readFileSync(join(dir, '.github', 'workflows', 'tailgate.yml'), 'utf8');
  assert.match(wf, /matrix: pr\n[\s\S]*matrix: pr-failover\n[\s\S]*matrix: pr-routes\n/);
  assert.match(
    readFileSync(join(dir, '.github', 'workflows', 'tailgate-comment.yml'), 'utf8'),
    /gates: '\["pr","pr-failover","pr-routes"\]'/,
  );
  assert.match(
    r.out,
    /make the check runs "tailgate" and "tailgate \(pr-failover\)" and "tailgate \(pr-routes\)" required/,
  );
});
