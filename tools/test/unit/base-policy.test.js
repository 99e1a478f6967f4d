// The gate's rules come from the base commit, as baselines do. Held out: a PR that raised
// its own p99 threshold to 1000% passed its ×1.46 regression.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { gateChanges } from '../../src/compare/base-policy.js';
import { applyDefaults } from '../../src/config/defaults.js';
import { parseBench } from '../../src/config/load.js';
import { pairedCompareIn, runCli } from '../helpers/cli.js';
import { committedRepo } from '../helpers/git-repo.js';

const ROOT = new URL('../../../', import.meta.url).pathname;
const RUNS = join(ROOT, 'tools/test/fixtures/runs');
const bench = (gate) => `apiVersion: tailgate/v1
kind: Bench
controllers:
  nginx-reload: { type: local, variant: nginx-reload }
scenarios:
  churn: { script: steady, rate: 300, duration: 5s }
${gate}matrices:
  local: { target: local, controllers: [nginx-reload], scenarios: [churn] }
`;

const repo = (baseBench) => committedRepo('tg-base-policy-', baseBench ? { 'bench.yaml': baseBench } : { README: 'x' });

const compareIn = (dir, extra) => pairedCompareIn(dir, RUNS, extra);

test("gate rules: a PR that loosens its own threshold is judged by the base's, and the verdict says what it changes", async () => {
  const { dir, base } = repo(bench(''));
  writeFileSync(
    join(dir, 'bench.yaml'),
    bench('gate:\n  latency:\n    p99: { threshold: 1000% }\n  assumedRunCv: 0.9\n'),
  );
  const own = await compareIn(dir, []);
  assert.notEqual(own.code, 1, 'with its own rules the regression is not found (the hole)');
  const judged = await compareIn(dir, ['--gate-ref', base]);
  assert.equal(judged.code, 1, judged.out);
  assert.deepEqual(judged.doc.gateChange, ['assumedRunCv 0.25 → 0.9', 'latency p99 threshold 10% → 1000%']);
  const md = join(dir, 'c.md');
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    await runCli(['report', judged.file, '--markdown', md]);
  } finally {
    process.chdir(cwd);
  }
  const body = readFileSync(md, 'utf8');
  assert.match(
    body.split('\n').slice(0, 6).join('\n'),
    /This PR changes the gate's own rules\*\*: assumedRunCv 0\.25 → 0\.9; latency p99 threshold 10% → 1000%\. They apply after it merges; this verdict uses the base's\./,
  );
});

test("gate rules: a base without bench.yaml — tailgate's defaults, said once; a bad ref is refused", async () => {
  const { dir, base } = repo(null);
  writeFileSync(join(dir, 'bench.yaml'), bench('gate:\n  latency:\n    p99: { threshold: 1000% }\n'));
  const r = await compareIn(dir, ['--gate-ref', base]);
  assert.equal(r.code, 1);
  assert.match(r.doc.gateNote, /the base commit has no bench\.yaml: tailgate's default gate applies/);
  const bad = await runCli([
    'compare',
    '--paired',
    '--base-results',
    RUNS,
    '--head-results',
    RUNS,
    '--gate-ref',
    '--upload-pack=x',
  ]);
  assert.equal(bad.code, 2);
});

test('gate rules: changes are listed rule by rule', () => {
  const d = applyDefaults({ controllers: {}, scenarios: {}, matrices: {} }).gate;
  assert.deepEqual(gateChanges(d, { ...d, confidence: 0.8 }), ['confidence 0.95 → 0.8']);
  assert.deepEqual(gateChanges(d, d), []);
});

test("comment: a PR that changes the gate's rules or the workload says so first", async () => {
  const { verdictDoc } = await import('../../src/compare/run-compare.js');
  const { renderMarkdown } = await import('../../src/report/markdown.js');
  const doc = verdictDoc('paired', [{ cell: 'traefik/default/steady', verdict: 'pass', metrics: [] }], {
    gateChange: ['latency p99 threshold 10% → 50%'],
    workloadChange: ['scenario "steady": rate 500 → 300'],
  });
  const lines = renderMarkdown(doc).split('\n').filter(Boolean);
  const at = (re) => lines.findIndex((l) => re.test(l));
  assert.ok(at(/This PR changes the gate's own rules\*\*: latency p99 threshold 10% → 50%/) >= 0);
  assert.ok(at(/This PR changes the workload\*\*: scenario "steady": rate 500 → 300\. Both sides ran the head's/) >= 0);
  assert.ok(at(/This PR changes/) < at(/^\| \| cell/), 'before the table');
});

// The base's bench.yaml takes the head's path (config/load.js): schema, defaults, checks,
// numbers. Before, it was schema-checked only and its rules made numbers mid-compare.
test("gate rules: the base's bench.yaml is checked as the head's is — one it fails is refused, named by ref, line and field", async () => {
  const broken = bench('').replace('scenarios: [churn]', 'scenarios: [churn, nope]');
  const { dir, base } = repo(broken);
  writeFileSync(join(dir, 'bench.yaml'), bench(''));
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    const r = await runCli(['compare', '--paired', '--base-results', RUNS, '--head-results', RUNS, '--gate-ref', base]);
    assert.equal(r.code, 2, r.out);
    assert.match(r.out, new RegExp(`${base}:bench\\.yaml: the base's bench\\.yaml does not validate`));
    assert.match(r.out, new RegExp(`${base}:bench\\.yaml:\\d+:\\d+: matrices\\.local\\.scenarios\\.1: .*nope`));
  } finally {
    process.chdir(cwd);
  }
});

test('gate rules: a rule written another way ("10.0%", "1000ms") is no change', async () => {
  const { dir, base } = repo(bench('gate:\n  latency:\n    p99: { threshold: 10.0%, floor: 1000ms }\n'));
  writeFileSync(join(dir, 'bench.yaml'), bench('gate:\n  latency:\n    p99: { threshold: 10%, floor: 1s }\n'));
  const r = await compareIn(dir, ['--gate-ref', base]);
  assert.equal(r.doc.gateChange, undefined, JSON.stringify(r.doc.gateChange));
  const moved = bench('gate:\n  latency:\n    p99: { threshold: 12%, floor: 1s }\n');
  writeFileSync(join(dir, 'bench.yaml'), moved);
  assert.deepEqual((await compareIn(dir, ['--gate-ref', base])).doc.gateChange, [
    'latency p99 floor 1000ms → 1s',
    'latency p99 threshold 10.0% → 12%',
  ]);
});

test("a base commit's bench.yaml names files of that commit: they are not resolved or read on this disk", () => {
  const text = `apiVersion: tailgate/v1
kind: Bench
profiles:
  gha: { description: GitHub's runner, runner: ubuntu-24.04, maxRate: 1000 }
controllers:
  traefik:
    type: helm
    chart: { repo: https://traefik.github.io/charts, name: traefik, version: 41.3.0 }
    values: gone-values.yaml
    ingressClass: traefik
scenarios:
  steady: { script: steady, rate: 200, duration: 20s }
matrices:
  pr: { target: kind, profile: gha, controllers: [traefik], scenarios: [steady] }
`;
  const dir = mkdtempSync(join(tmpdir(), 'tg-base-files-'));
  writeFileSync(join(dir, 'bench.yaml'), text);
  assert.throws(
    () => parseBench(text, join(dir, 'bench.yaml')),
    (err) => err.details.some((d) => /values file .*gone-values\.yaml not found/.test(d)),
  );
  const cfg = parseBench(text, 'abc123:bench.yaml', { onDisk: false });
  assert.equal(cfg.controllers.traefik.valuesFile, undefined);
  assert.equal(cfg.matrices.pr.gate.latency.p99.threshold, '10%');
  rmSync(dir, { recursive: true, force: true });
});
