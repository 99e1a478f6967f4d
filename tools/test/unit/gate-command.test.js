// `tailgate gate`: the PR gate's policy as one command (it was bash in tools/ci/gate.sh,
// reached only by end-to-end runs). Every fail-closed path, in process.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { compareArgs } from '../../src/cli/gate.js';
import { runCli } from '../helpers/cli.js';
import { makeRunDir } from '../helpers/run-dir.js';
import { scratchDir } from '../helpers/scratch.js';

const ROOT = new URL('../../../', import.meta.url).pathname;
const RUNS = join(ROOT, 'tools/test/fixtures/runs');
const CELL = 'nginx-reload/default/churn';

// report draws charts only for result folders under the working directory (a verdict is
// an artifact: hostile-verdict-folders), so a gate over scratch results runs from `cwd`.
async function gate(args, env = () => ({}), cwd = process.cwd()) {
  const out = scratchDir('tg-gatecmd-');
  const saved = { ...process.env };
  const savedCwd = process.cwd();
  Object.assign(process.env, { GITHUB_STEP_SUMMARY: '', GITHUB_OUTPUT: '' }, env(out));
  process.chdir(cwd);
  try {
    const r = await runCli(['gate', '--out', join(out, 'gate'), ...args]);
    return { ...r, out: r.out, dir: join(out, 'gate'), root: out };
  } finally {
    process.chdir(savedCwd);
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  }
}
const paired = (head) => ['--mode', 'paired', '--base-results', join(RUNS, 'base'), '--results', join(RUNS, head)];

test('gate: a regression exits 1 and writes the artifact; a pass exits 0; both say confirm={"include":[]}', async () => {
  const reg = await gate(paired('head'), () => ({}));
  assert.equal(reg.code, 1, reg.out);
  assert.match(reg.out, /^confirm=\{"include":\[\]\}$/m);
  const meta = JSON.parse(readFileSync(join(reg.dir, 'comment', 'meta.json'), 'utf8'));
  assert.equal(meta.overall, 'regression');
  const pass = await gate(paired('base'), () => ({}));
  assert.equal(pass.code, 0, pass.out);
});

test('gate: bad flags and a compare that writes no verdict are never a pass', async () => {
  assert.equal((await gate(['--results', RUNS], () => ({}))).code, 2, 'baseline mode without --base-ref');
  assert.equal((await gate(['--results', RUNS, '--mode', 'nope'], () => ({}))).code, 2);
  // compare cannot write its verdict (its name is taken by a folder).
  const none = await gate(paired('head'), (out) => ({
    x: mkdirSync(join(out, 'gate', 'verdict.json'), { recursive: true }),
  }));
  assert.equal(none.code, 2, none.out);
  assert.match(none.out, /::error::tailgate compare wrote no verdict/);
});

test('gate: after the verdict every failing step keeps a regression red and turns a pass into 4', async () => {
  const sabotage = {
    report: (out) => ({ x: mkdirSync(join(out, 'gate', 'comment', 'comment.md'), { recursive: true }) }),
    'confirmation matrix': (out) => ({ x: mkdirSync(join(out, 'gate', 'confirm.json'), { recursive: true }) }),
    'job summary': (out) => (mkdirSync(join(out, 'summary')), { GITHUB_STEP_SUMMARY: join(out, 'summary') }),
    'step output': (out) => (mkdirSync(join(out, 'output')), { GITHUB_OUTPUT: join(out, 'output') }),
  };
  for (const [step, env] of Object.entries(sabotage)) {
    const clean = (out) => Object.fromEntries(Object.entries(env(out)).filter(([k]) => k !== 'x'));
    const bad = await gate(paired('head'), clean);
    assert.equal(bad.code, 1, `${step}: ${bad.out}`);
    assert.match(bad.out, /the gate fails closed/, step);
    const pass = await gate(paired('base'), clean);
    assert.equal(pass.code, 4, `${step}: ${pass.out}`);
    assert.match(pass.out, /reported as 4/, step);
  }
});

test('gate: a suspicious cell exits 3 (pending, never green) with the confirmation matrix; the round with fresh runs decides', async () => {
  const root = scratchDir('tg-gate-suspect-');
  const reps = (scale, seeds) => ({ [CELL]: seeds.map((seed) => ({ medianMs: 4, scale, seed })) });
  const base = await makeRunDir(reps(1, [1, 2]), join(root, 'b'));
  const head = await makeRunDir(reps(3, [4, 6]), join(root, 'h'));
  const first = await gate(
    ['--mode', 'paired', '--base-results', base, '--results', head],
    (out) => ({ GITHUB_OUTPUT: join(out, 'output.txt') }),
    root,
  );
  const output = readFileSync(join(first.root, 'output.txt'), 'utf8');
  assert.equal(JSON.parse(output.match(/^confirm=(.*)$/m)[1]).include.length, 1, first.out);
  assert.equal(first.code, 3, `a first look waiting for its round is not a pass: ${first.out}`);
  assert.match(first.out, /::notice::a confirmation round with fresh runs is needed/);
  const meta = JSON.parse(readFileSync(join(first.dir, 'comment', 'meta.json'), 'utf8'));
  assert.deepEqual([meta.round, meta.pending, meta.exitCode], ['first', true, 3]);
  assert.match(readFileSync(join(first.dir, 'comment', 'comment.md'), 'utf8'), /### tailgate ⏳ awaiting confirmation/);
  // The round: fresh runs as bad as the first make it a regression, and no further round.
  const round = join(root, 'round');
  await makeRunDir(reps(1, [11, 12]), join(round, 'base'));
  await makeRunDir(reps(3, [14, 16]), join(round, 'head'));
  const args = ['--mode', 'paired', '--base-results', base, '--results', head, '--confirm-results', round];
  const second = await gate(args, () => ({}), root);
  assert.equal(second.code, 1, second.out);
  assert.match(second.out, /^confirm=\{"include":\[\]\}$/m);
});

test('gate: which compare each mode runs — the base commit rules a paired PR, confirmation reads base/ and head/', () => {
  assert.deepEqual(compareArgs({ mode: 'baseline', results: 'r', 'base-ref': 'abc' }, 'v.json'), [
    'compare',
    '--results',
    'r',
    '--base-ref',
    'abc',
    '--out',
    'v.json',
    '--force',
  ]);
  assert.deepEqual(compareArgs({ mode: 'concurrent', results: 'r', 'base-ref': 'abc', 'confirm-results': 'c' }, 'v'), [
    'compare',
    '--gate-ref',
    'abc',
    '--paired',
    '--base-results',
    'r/base',
    '--head-results',
    'r/head',
    '--confirm-base-results',
    'c/base',
    '--confirm-head-results',
    'c/head',
    '--out',
    'v',
    '--force',
  ]);
});
