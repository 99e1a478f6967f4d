import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.js';
import { makeRunDir } from '../helpers/run-dir.js';
import { syntheticResult } from '../helpers/synthetic.js';
import { scratchDir } from '../helpers/scratch.js';

const M = 4;

test('cli compare: file contract — pass 0, regression 1, bad input 2, inconclusive 3', async () => {
  const b1 = (await syntheticResult({ medianMs: M, seed: 1 })).file;
  const b2 = (await syntheticResult({ medianMs: M, seed: 2 })).file;
  const same = (await syntheticResult({ medianMs: M, seed: 3 })).file;
  const worse = (await syntheticResult({ medianMs: M, scale: 3, seed: 4 })).file;
  const worse2 = (await syntheticResult({ medianMs: M, scale: 3, seed: 7 })).file;
  const dropped = (await syntheticResult({ medianMs: M, seed: 5, dropped: 900 })).file;
  assert.equal((await runCli(['compare', '--baseline', b1, '--baseline', b2, same])).code, 0);
  // x3 in 2 vs 1 runs is suspicious, not certain: undecided (exit 3) until fresh runs…
  const suspect = await runCli(['compare', '--baseline', b1, '--baseline', b2, worse]);
  assert.equal(suspect.code, 3);
  assert.match(
    suspect.out,
    /possible p99: .*needs confirmation — re-run this cell \(1 more run per side\) and pass them with --confirm-results/,
  );
  // What the CI gate hands on: the commenter's meta and the confirmation round's matrix.
  const dir = scratchDir('tg-gate-');
  await runCli(['compare', '--baseline', b1, '--baseline', b2, worse, '--out', join(dir, 'verdict.json')]);
  const rep = await runCli([
    'report',
    join(dir, 'verdict.json'),
    '--meta',
    join(dir, 'meta.json'),
    '--confirm-matrix',
    join(dir, 'confirm.json'),
  ]);
  assert.equal(rep.code, 3, rep.out);
  assert.deepEqual(JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')), {
    kind: 'tailgate.comment',
    schemaVersion: 1,
    overall: 'inconclusive',
    exitCode: 3,
    round: 'first',
    pending: true,
  });
  const confirm = JSON.parse(readFileSync(join(dir, 'confirm.json'), 'utf8')).include;
  assert.equal(confirm.length, 1);
  assert.equal(confirm[0].runs, 1);
  assert.equal(confirm[0].firstPair, 2);
  // …and fresh runs that show it again make it a regression.
  const reg = await runCli(['compare', '--baseline', b1, '--baseline', b2, worse, '--confirm-head', worse2]);
  assert.equal(reg.code, 1, reg.out);
  assert.match(reg.out, /verdict: REGRESSION/);
  assert.equal(
    (await runCli(['compare', '--baseline', b1, '--baseline', b2, worse, '--confirm-head', same])).code,
    0,
    'fresh runs without it clear it',
  );
  assert.equal((await runCli(['compare', '--baseline', dropped, same])).code, 3, 'a base k6 could not deliver');
  const far = (await syntheticResult({ medianMs: M, scale: 12, seed: 8 })).file;
  const far2 = (await syntheticResult({ medianMs: M, scale: 12, seed: 9 })).file;
  assert.equal(
    (await runCli(['compare', '--paired', '--base', b1, '--base', b2, '--head', far, '--head', far2])).code,
    1,
    'x12: decided without confirmation',
  );
  // Head repetitions that disagree (x3 and x1.0) are not evidence enough with 2 vs 2.
  assert.equal(
    (await runCli(['compare', '--paired', '--base', b1, '--base', b2, '--head', worse, '--head', same])).code,
    0,
  );
  assert.equal((await runCli(['compare', '--baseline', '/nonexistent.json', same])).code, 2);
  assert.equal((await runCli(['compare', same])).code, 2);
});

test('cli compare: hand-edited and corrupted inputs are named errors (exit 2)', async () => {
  const { result } = await syntheticResult({ medianMs: M, seed: 6 });
  const dir = scratchDir('tg-bad-');
  const write = (name, doc) => (writeFileSync(join(dir, name), JSON.stringify(doc)), join(dir, name));
  const good = write('good.json', result);
  const edited = write('edited.json', { ...result, requests: { total: result.requests.total + 5 } });
  const p99 = write('p99.json', {
    ...result,
    latency: { ...result.latency, percentiles: { ...result.latency.percentiles, p99: 0.5 } },
  });
  const corrupt = write('corrupt.json', {
    ...result,
    latency: { ...result.latency, histogram: 'bm90IGEgaGlzdG9ncmFt' },
  });
  const future = write('future.json', { ...result, schemaVersion: 2 });
  const cases = [
    [edited, /inconsistent counts/],
    [p99, /percentiles\.p99 is 0\.5 but the histogram says/],
    [corrupt, /not a valid compressed HDR histogram/],
    [future, /schemaVersion 2 is not supported/],
  ];
  for (const [file, pattern] of cases) {
    const r = await runCli(['compare', '--baseline', good, file]);
    assert.equal(r.code, 2, file);
    assert.match(r.out, pattern);
    assert.ok(r.out.includes(file), 'names the file');
  }
});

test('cli baseline update + compare --results: no-baseline, pass, regression, infra-error', async () => {
  const cwd = process.cwd();
  const work = scratchDir('tg-bl-');
  process.chdir(work);
  try {
    const run1 = await makeRunDir({
      'c/t/steady': [
        { medianMs: M, seed: 10 },
        { medianMs: M, seed: 11 },
      ],
      'c/t/churn': [{ medianMs: M, seed: 12 }],
    });
    const none = await runCli(['compare', '--results', run1]);
    assert.equal(none.code, 3);
    assert.match(none.out, /no baseline for profile "local".*\n?.*tailgate baseline update --results/s);

    const up = await runCli(['baseline', 'update', '--results', run1]);
    assert.equal(up.code, 0, up.out);
    const file = join('baselines', 'local', 'c', 't', 'steady.json');
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    assert.equal(doc.repetitions.length, 2);
    assert.equal(doc.merged.requests, doc.repetitions[0].requests.total + doc.repetitions[1].requests.total);
    assert.equal(doc.provenance.machine.fingerprint, 'test-machine');
    assert.match(up.out, /new: p50/);
    const again = await runCli(['baseline', 'update', '--results', run1]);
    assert.equal(again.code, 2, 'never overwritten without --force');
    assert.match(again.out, /never overwritten silently/);

    const run2 = await makeRunDir({
      'c/t/steady': [
        { medianMs: M, seed: 20 },
        { medianMs: M, seed: 21 },
      ],
      'c/t/churn': [
        { medianMs: M, scale: 1.7, seed: 22 },
        { medianMs: M, scale: 1.7, seed: 23 },
      ],
    });
    const out = join(work, 'verdict.json');
    const r = await runCli(['compare', '--results', run2, '--out', out]);
    assert.equal(r.code, 1, r.out);
    const verdict = JSON.parse(readFileSync(out, 'utf8'));
    assert.deepEqual(Object.fromEntries(verdict.cells.map((c) => [c.cell, c.verdict])), {
      'c/t/churn': 'regression',
      'c/t/steady': 'pass',
    });

    const forced = await runCli(['baseline', 'update', '--results', run2, '--force', '--cells', 'c/t/churn']);
    assert.equal(forced.code, 0);
    assert.match(forced.out, /p99 .* -> .* \(\+\d+\.\d%\)/);

    const run3 = await makeRunDir({ 'c/t/steady': [{ cellError: 'kind create cluster failed' }] });
    assert.equal((await runCli(['compare', '--results', run3])).code, 4);
    assert.equal((await runCli(['baseline', 'update', '--results', run3])).code, 2, 'no baseline from a failed cell');

    const other = await makeRunDir({ 'c/t/steady': [{ medianMs: M, seed: 30, profile: 'metal' }] });
    const mismatch = await runCli(['baseline', 'update', '--results', other, '--profile', 'local', '--force']);
    assert.equal(mismatch.code, 2);
    assert.match(mismatch.out, /profile\(s\) metal, not "local"/);
  } finally {
    process.chdir(cwd);
  }
});

test('cli compare --base-ref: the baseline comes from the commit, not the working tree', async () => {
  const cwd = process.cwd();
  const work = scratchDir('tg-ref-');
  process.chdir(work);
  try {
    const git = (...a) => execFileSync('git', a, { stdio: 'pipe' });
    git('init', '-q');
    git('config', 'user.email', 't@example.invalid');
    git('config', 'user.name', 'test');
    const slow = await makeRunDir({ 'c/t/steady': [{ medianMs: M, seed: 40 }] }, join(work, 'run-base'));
    await runCli(['baseline', 'update', '--results', slow]);
    git('add', 'baselines');
    git('commit', '-qm', 'baseline');
    // The PR "improves" its own baseline in the working tree to hide a regression.
    const worse = await makeRunDir({ 'c/t/steady': [{ medianMs: M, scale: 4, seed: 41 }] }, join(work, 'run-head'));
    await runCli(['baseline', 'update', '--results', worse, '--force']);
    assert.equal((await runCli(['compare', '--results', worse])).code, 0, 'working tree baseline hides it');
    const r = await runCli(['compare', '--results', worse, '--base-ref', 'HEAD']);
    assert.equal(r.code, 1, r.out);
    assert.equal((await runCli(['compare', '--results', worse, '--base-ref', 'no-such-ref'])).code, 2);
    assert.ok(existsSync(join(work, 'baselines')));
  } finally {
    process.chdir(cwd);
  }
});

test('cli compare: paired folders hold one run per repetition (A B A B); cells are found at any depth', async () => {
  const root = scratchDir('tg-paired-');
  for (let i = 0; i < 3; i++) {
    await makeRunDir({ 'c/t/s': [{ medianMs: M, seed: 50 + i }] }, join(root, 'base', `run-${i}`));
    await makeRunDir({ 'c/t/s': [{ medianMs: M, scale: 4, seed: 60 + i }] }, join(root, 'head', `run-${i}`));
  }
  const out = join(root, 'verdict.json');
  const r = await runCli([
    'compare',
    '--paired',
    '--base-results',
    join(root, 'base'),
    '--head-results',
    join(root, 'head'),
    '--out',
    out,
  ]);
  assert.equal(r.code, 1, r.out);
  const v = JSON.parse(readFileSync(out, 'utf8'));
  assert.equal(v.cells[0].baseReps, 3);
  assert.equal(v.cells[0].headReps, 3);
});

test('tailgate run with baselines: candidate cells are re-run and the verdict made with the fresh runs', async () => {
  const { afterRun } = await import('../../src/pipeline/after-run.js');
  const { applyDefaults } = await import('../../src/config/defaults.js');
  const cwd = process.cwd();
  const work = scratchDir('tg-confirm-');
  process.chdir(work);
  try {
    const base = await makeRunDir({ 'c/t/s': [{ medianMs: M, seed: 70 }] }, join(work, 'base'));
    await runCli(['baseline', 'update', '--results', base]);
    const cfg = applyDefaults({
      controllers: {},
      scenarios: {},
      matrices: { m: { target: 'local', controllers: [], scenarios: [] } },
    });
    const plan = { matrix: cfg.matrices.m };
    for (const [scale, want] of [
      [2, 1],
      [1, 0],
    ]) {
      const head = await makeRunDir({ 'c/t/s': [{ medianMs: M, scale: 2, seed: 71 }] }, join(work, `head-${scale}`));
      const asked = [];
      const code = await afterRun({
        cfg,
        plan,
        runDir: head,
        confirm: async (keys) => {
          asked.push(...keys);
          return makeRunDir({ 'c/t/s': [{ medianMs: M, scale, seed: 72 }] }, join(work, `fresh-${scale}`));
        },
      });
      assert.deepEqual(asked, ['c/t/s'], 'x2 in one run each is a candidate');
      assert.equal(code, want, `fresh runs at x${scale}`);
      const v = JSON.parse(readFileSync(join(head, 'verdict.json'), 'utf8'));
      assert.deepEqual(v.confirm, []);
    }
  } finally {
    process.chdir(cwd);
  }
});

test('cli compare --migration: no worse, worse and not decided map to exit 0, 1, 3', async () => {
  const root = scratchDir('tg-mig-');
  const runs = (name, scale, n, seed) =>
    makeRunDir(
      { 'c/t/s': Array.from({ length: n }, (_, i) => ({ medianMs: M, scale, seed: seed + i })) },
      join(root, name),
    );
  const from = await runs('from', 1, 6, 80);
  const same = await runs('same', 1, 6, 90);
  const slow = await runs('slow', 3, 6, 100);
  const r0 = await runCli([
    'compare',
    '--migration',
    '--base-results',
    from,
    '--head-results',
    same,
    '--margin',
    'p99=25%,errors=50%',
  ]);
  assert.ok([0, 3].includes(r0.code), r0.out);
  assert.match(r0.out, /p99 +×1\.\d+ \(\d+% interval/);
  const r1 = await runCli(['compare', '--migration', '--base-results', from, '--head-results', slow]);
  assert.equal(r1.code, 1, r1.out);
  assert.match(r1.out, /migration verdict: WORSE/);
  const bad = await runCli([
    'compare',
    '--migration',
    '--base-results',
    from,
    '--head-results',
    same,
    '--margin',
    'p99=ten',
  ]);
  assert.equal(bad.code, 2);
});

test('cli compare --migration --results --from: every candidate of one run in one table, one Holm family', async () => {
  const reps = (scale, seed) => Array.from({ length: 6 }, (_, i) => ({ medianMs: M, scale, seed: seed + i }));
  const run = await makeRunDir({
    'ingress-nginx/default/steady': reps(1, 10),
    'ingress-nginx/default/pod-kill': reps(1, 20),
    'traefik/default/steady': reps(1, 30),
    'traefik/default/pod-kill': reps(1, 40),
    'slowproxy/default/steady': reps(3, 50),
    'slowproxy/default/pod-kill': reps(3, 60),
  });
  const md = join(scratchDir('tg-mig-md-'), 'migration.md');
  const r = await runCli([
    'compare',
    '--migration',
    '--results',
    run,
    '--from',
    'ingress-nginx',
    '--markdown',
    md,
    '--out',
    join(run, 'm.json'),
  ]);
  assert.equal(r.code, 1, r.out);
  assert.match(r.out, /\| scenario \(vs ingress-nginx\) \| slowproxy \| traefik \|/);
  assert.match(r.out, /\| default\/steady \| ❌ worse p99 ×3(\.\d+)? \(≤ ×3/);
  // No errors on either side: "no worse" in errors needs no ratio test (none could show it).
  assert.match(r.out, /\| default\/steady \| ❌ worse .* \| ✅ no worse p99 ×1/);
  const doc = JSON.parse(readFileSync(join(run, 'm.json'), 'utf8'));
  assert.equal(doc.cells.length, 4, 'both candidates, both scenarios');
  const errs = doc.cells.find((c) => c.cell === 'traefik/default/steady').metrics.find((m) => m.metric === 'errors');
  assert.deepEqual([errs.head, errs.verdict], [0, 'no-worse']);
  assert.match(readFileSync(md, 'utf8'), /### tailgate migration: no worse than `ingress-nginx`\? ❌ worse/);
  // The same table from the kept document, for a PR comment or a page; names re-checked.
  const page = join(scratchDir('tg-mig-page-'), 'page.md');
  assert.equal((await runCli(['report', join(run, 'm.json'), '--markdown', page])).code, 1);
  assert.match(readFileSync(page, 'utf8'), /\| default\/steady \| ❌ worse p99 ×3/);
  const forged = join(run, 'forged.json');
  writeFileSync(forged, JSON.stringify({ ...doc, table: { ...doc.table, candidates: ['<img src=x>'] } }));
  assert.equal((await runCli(['report', forged])).code, 2, 'a name from the file that is not a name is refused');
  const charts = join(scratchDir('tg-mig-charts-'), 'charts');
  const c = await runCli(['compare', '--migration', '--results', run, '--from', 'ingress-nginx', '--charts', charts]);
  assert.equal(c.code, 1, c.out);
  const folder = join(charts, 'migration__default__steady');
  for (const f of ['spectrum.svg', 'spectrum.png']) assert.ok(existsSync(join(folder, f)), `${f} drawn`);
  // One spectrum per controller: from and both candidates.
  assert.equal(readFileSync(join(folder, 'spectrum.svg.gp'), 'utf8').match(/spectrum-\d\.dat/g).length, 3);
  const only = await runCli(['compare', '--migration', '--results', run, '--from', 'ingress-nginx', '--to', 'traefik']);
  assert.ok([0, 3].includes(only.code), only.out);
  assert.ok(!/slowproxy/.test(only.out));
  assert.equal((await runCli(['compare', '--migration', '--results', run, '--from', 'haproxy'])).code, 2);
});

test('tailgate migrate: bad input is named before anything runs (exit 2)', async () => {
  const fixture = new URL('../fixtures/kind/bench.yaml', import.meta.url).pathname;
  const migrate = (...more) =>
    runCli(['migrate', '--config', fixture, '--matrix', 'e2e-migration', '--from', 'traefik', ...more]);
  for (const [args, why] of [
    [[], /--to required/],
    [['--to', 'traefik'], /is --from's own controller/],
    [['--to', 'nope'], /"nope" is not a helm controller/],
    [['--to', 'haproxy-ingress', '--margin', 'p99=lots'], /--margin: expected/],
  ]) {
    const r = await migrate(...args);
    assert.equal(r.code, 2, r.out);
    assert.match(r.out, why);
  }
});
