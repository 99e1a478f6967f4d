// `tailgate gate`: the PR gate's policy as one command (it was bash in tools/ci/gate.sh,
// reached only by end-to-end runs). Every fail-closed path, in process.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { compareRequest } from '../../src/cli/gate.js';
import { typed } from '../helpers/compare-request.js';
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
  const pending = readFileSync(join(first.dir, 'comment', 'comment.md'), 'utf8');
  assert.match(pending, /### tailgate ⏳ awaiting confirmation/);
  // Pending, not inconclusive: its row, its fold and the awaited test say so; the row's Δ
  // (beyond the threshold) carries its interval; one blocking test is one.
  assert.match(
    pending,
    /^\| ⏳ \| `nginx-reload\/default\/churn` \|[^|]+\|[^|]+\| \+\d+% \(90%: \+[\d.]+…\+[\d.]+%\) \|/m,
  );
  assert.match(
    pending,
    /<summary>⏳ nginx-reload\/default\/churn: awaiting confirmation \(2 base runs vs 2 head runs\)/,
  );
  assert.match(pending, /^\| p99 \|.*\| 0\.001 \(after confirmation\) \| awaiting confirmation \|$/m);
  assert.match(pending, /^- ✅ pass: .* ⏳ pending: [^.]*confirmation round[^\n]*$/m);
  assert.match(pending, /fails: ≤ 5% over its 1 blocking test\./);
  assert.doesNotMatch(pending, /⚠️ nginx|: inconclusive \(|all 1 blocking|over 1 tests/);
  // The round: fresh runs as bad as the first make it a regression, and no further round.
  const round = join(root, 'round');
  await makeRunDir(reps(1, [11, 12]), join(round, 'base'));
  await makeRunDir(reps(3, [14, 16]), join(round, 'head'));
  const args = ['--mode', 'paired', '--base-results', base, '--results', head, '--confirm-results', round];
  const second = await gate(args, () => ({}), root);
  assert.equal(second.code, 1, second.out);
  assert.match(second.out, /^confirm=\{"include":\[\]\}$/m);
  // Confirmed: the count is of blocking tests (the advisory quantiles' second looks are not
  // among them), and the row and the note are the fresh runs', not the first look's.
  const verdict = JSON.parse(readFileSync(join(second.dir, 'verdict.json'), 'utf8'));
  assert.deepEqual([verdict.procedure.blockingTests, verdict.procedure.confirmedTests], [1, 1]);
  const p99 = verdict.cells[0].metrics.find((m) => m.metric === 'p99');
  const fresh = p99.confirmation;
  assert.notEqual(fresh.ratio, p99.ratio);
  const body = readFileSync(join(second.dir, 'comment', 'comment.md'), 'utf8');
  assert.match(body, /over its 1 blocking test \(1 confirmed on fresh runs\)\./);
  const row = body.split('\n').find((l) => l.startsWith('| ❌ |'));
  assert.equal(row.split(' | ')[4], `+${((fresh.ratio - 1) * 100).toFixed(1)}% 🔺`, row);
  assert.equal(row.split(' | ')[3], `${fresh.head.toPrecision(3)}ms`, row);
  assert.match(
    body,
    new RegExp(
      `: p99: [\\d.]+ → [\\d.]+ ms on 2 fresh runs \\(×${fresh.ratio.toPrecision(3)}, 90% interval .*; first look ×${p99.ratio.toPrecision(3)};.* over 1 test\\)`,
    ),
  );
  assert.match(body, /\| p99 \|.*\| first look ×[\d.]+ \([\d.]+–[\d.]+\); 2 fresh runs ×[\d.]+ \([\d.]+–[\d.]+\) \|/);
});

test('gate: which compare each mode runs — the base commit rules a paired PR, confirmation reads base/ and head/', () => {
  assert.deepEqual(typed(compareRequest({ mode: 'baseline', results: 'r', 'base-ref': 'abc' }, 'v.json')), {
    results: 'r',
    'base-ref': 'abc',
    out: 'v.json',
    force: true,
  });
  assert.deepEqual(
    typed(compareRequest({ mode: 'concurrent', results: 'r', 'base-ref': 'abc', 'confirm-results': 'c' }, 'v')),
    {
      'gate-ref': 'abc',
      paired: true,
      'base-results': 'r/base',
      'head-results': 'r/head',
      'confirm-base-results': 'c/base',
      'confirm-head-results': 'c/head',
      out: 'v',
      force: true,
    },
  );
});
