// A run refused before any cell (a PR's values file the chart's schema refuses) leaves a
// cell-error.json per planned cell and side; the gate turns them into one input-error
// verdict (exit 2) whose comment says the reason once — not an ENOENT and no comment.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runPlan } from '../../src/run/runner.js';
import { comparePairedRuns } from '../../src/compare/run-compare.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { InfraError, InputError } from '../../src/errors.js';
import { applyDefaults } from '../../src/config/defaults.js';
import { scratchDir } from '../helpers/scratch.js';

const GATE = applyDefaults({ controllers: {}, scenarios: {}, matrices: {} }).gate;

const cell = (scenarioName, index) => ({
  id: `traefik/default/${scenarioName}/rep-1`,
  index,
  controllerName: 'traefik',
  tuningName: 'default',
  scenarioName,
  repetition: 1,
  concurrent: true,
});
const plan = { cells: [cell('steady', 0), cell('pod-kill', 1)] };
const RULE =
  "chart traefik 41.3.0 refuses the values of traefik-b: at '': additional properties 'podAnnotations' not allowed";

test('a refusal before any cell is recorded for every cell and side, and gated as input-error once', async () => {
  const runDir = scratchDir('tg-refusal-');
  const driver = {
    start: async () => {
      throw new InputError(RULE);
    },
  };
  await assert.rejects(() => runPlan(plan, { runDir, driver, log: () => {} }), InputError);
  for (const side of ['base', 'head'])
    for (const s of ['steady', 'pod-kill']) {
      const f = join(runDir, side, 'traefik', 'default', s, 'rep-1', 'cell-error.json');
      assert.ok(existsSync(f), f);
      assert.equal(JSON.parse(readFileSync(f, 'utf8')).infra, false);
    }
  const v = comparePairedRuns({ baseDir: join(runDir, 'base'), headDir: join(runDir, 'head'), gate: GATE });
  assert.equal(v.overall, 'input-error');
  assert.equal(v.exitCode, 2);
  assert.deepEqual(
    v.cells.map((c) => c.reasons),
    [[RULE], [RULE]],
  );
  const md = renderMarkdown(v);
  assert.match(md, /🛑 this PR's input is refused/);
  assert.equal(md.split("additional properties 'podAnnotations'").length - 1, 1, 'said once');
  assert.match(md, /2 cells \(`traefik\/default\/pod-kill`, `traefik\/default\/steady`\)/);
  assert.match(md, /Nothing was measured/);
});

test('an infrastructure failure before any cell stays an infra-error (exit 4)', async () => {
  const runDir = scratchDir('tg-refusal-');
  const driver = {
    start: async () => {
      throw new InfraError('docker is not running');
    },
  };
  await assert.rejects(() => runPlan(plan, { runDir, driver, log: () => {} }), InfraError);
  const v = comparePairedRuns({ baseDir: join(runDir, 'base'), headDir: join(runDir, 'head'), gate: GATE });
  assert.equal(v.overall, 'infra-error');
  assert.equal(v.exitCode, 4);
});

// The PR that adds bench.yaml: only the head ran (paired-cell.sh). Its comment said
// "Paired mode: base and head ran interleaved" when the head's cluster failed.
test('the head alone (no base folder): the comment says so, whatever its cells came to', async () => {
  const runDir = scratchDir('tg-refusal-');
  const driver = {
    start: async () => {
      throw new InfraError('step failed: create kind cluster');
    },
  };
  await assert.rejects(() =>
    runPlan({ cells: [{ ...cell('steady', 0), concurrent: false }] }, { runDir, driver, log: () => {} }),
  );
  // A plain run's cells are the head's; no base folder beside them.
  const v = comparePairedRuns({ baseDir: join(runDir, 'base'), headDir: runDir, gate: GATE });
  assert.equal(v.headAlone, true);
  assert.equal(v.overall, 'infra-error');
  const md = renderMarkdown(v);
  assert.match(md, /The head ran alone/);
  assert.doesNotMatch(md, /Paired mode|interleaved/);
  const both = comparePairedRuns({ baseDir: runDir, headDir: runDir, gate: GATE });
  assert.equal(both.headAlone, undefined);
});

// The PR gate's compare (--out with results folders) never ends without a verdict: a head
// bench.yaml that does not load is input-error (exit 2), no results at all infra-error
// (exit 4), each with a comment that says so.
test('gate compare: a broken head bench.yaml and absent results still give a verdict and a comment', () => {
  const cli = (...a) =>
    spawnSync(process.execPath, [join(process.cwd(), 'tools/bin/tailgate.js'), ...a], { encoding: 'utf8', cwd: dir });
  const dir = scratchDir('tg-refused-');
  writeFileSync(
    join(dir, 'bench.yaml'),
    'apiVersion: tailgate/v1\nkind: Bench\ncontrollers: {}\nscenarios: { steady: { script: steady, rate: fast } }\nmatrices: {}\n',
  );
  let r = cli('compare', '--matrix', 'pr', '--results', 'results/pr', '--base-ref', 'HEAD', '--out', 'v.json');
  assert.equal(r.status, 2, r.stderr);
  let v = JSON.parse(readFileSync(join(dir, 'v.json'), 'utf8'));
  assert.equal(v.overall, 'input-error');
  assert.match(v.refused, /bench\.yaml/);
  assert.match(v.refused, /rate/);
  r = cli('report', 'v.json', '--markdown', 'c.md', '--force');
  assert.equal(r.status, 2, r.stderr);
  const md = readFileSync(join(dir, 'c.md'), 'utf8');
  assert.match(md, /🛑 this PR's input is refused/);
  assert.match(md, /🛑 .*bench\.yaml.*rate/);

  rmSync(join(dir, 'bench.yaml')); // tailgate's default gate
  r = cli(
    'compare',
    '--paired',
    '--base-results',
    'results/pr/base',
    '--head-results',
    'results/pr/head',
    '--out',
    'v2.json',
  );
  assert.equal(r.status, 4, r.stderr);
  v = JSON.parse(readFileSync(join(dir, 'v2.json'), 'utf8'));
  assert.equal(v.overall, 'infra-error');
  assert.match(v.refused, /no results arrived/);
});
