// `make bench` on any machine ends in a verdict (run --own-baselines): committed baselines
// of another CPU made a newcomer's first run "INCONCLUSIVE — exit 3". Machines are faked
// by the fingerprint and CPU model in each result's meta.machine (what result/machine.js
// records): no load runs here.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { afterRun } from '../../src/pipeline/after-run.js';
import { applyDefaults } from '../../src/config/defaults.js';
import { runCli } from '../helpers/cli.js';
import { makeRunDir } from '../helpers/run-dir.js';
import { scratchDir } from '../helpers/scratch.js';

const EPYC = { fingerprint: 'epyc0vm', cpuModel: 'AMD EPYC' };
const INTEL = { fingerprint: 'intel0box', cpuModel: 'Intel(R) Xeon(R) CPU @ 2.20GHz' };

// A run of `cells` on `machine`: every result's meta.machine rewritten as that machine's.
let seed = 0;
async function runOn(machine, dir, { cells = ['a/t/s', 'b/t/s'], medianMs = {} } = {}) {
  const spec = Object.fromEntries(
    cells.map((k) => [
      k,
      [1, 2].map(() => ({ medianMs: medianMs[k] ?? 2, seed: ++seed, fingerprint: machine.fingerprint })),
    ]),
  );
  const root = await makeRunDir(spec, dir);
  for (const k of cells)
    for (const rep of readdirSync(join(root, k))) {
      const f = join(root, k, rep, 'result.json');
      const doc = JSON.parse(readFileSync(f, 'utf8'));
      doc.meta.machine = { ...doc.meta.machine, ...machine, cpus: 2 };
      writeFileSync(f, JSON.stringify(doc));
    }
  return root;
}

const cfg = applyDefaults({
  controllers: {},
  scenarios: {},
  matrices: { m: { target: 'local', controllers: [], scenarios: [] } },
});

async function finish(work, runDir, own = join(work, 'results', 'baselines'), extra = {}) {
  const lines = [];
  const code = await afterRun({
    cfg,
    plan: { matrix: cfg.matrices.m },
    runDir,
    baselinesDir: join(work, 'baselines'),
    ownBaselinesDir: own,
    log: (...a) => lines.push(a.join(' ')),
    ...extra,
  });
  return { code, out: lines.join('\n') };
}

const verdictOf = (runDir) => JSON.parse(readFileSync(join(runDir, 'verdict.json'), 'utf8'));

test('another CPU of the committed class: the first run records its own baselines (exit 0, said), the next is judged against them, a regression exits 1', async () => {
  const work = scratchDir('tg-own-');
  const committed = await runOn(EPYC, join(work, 'epyc-run'));
  const rec = await runCli(['baseline', 'update', '--results', committed, '--baselines', join(work, 'baselines')]);
  assert.equal(rec.code, 0, rec.out);

  // Without --own-baselines (CI's runs): as before, the other CPU is inconclusive — exit 3.
  const before = await runOn(INTEL, join(work, 'before'));
  assert.equal((await finish(work, before, null)).code, 3);

  const first = await runOn(INTEL, join(work, 'first'));
  const r1 = await finish(work, first);
  assert.equal(r1.code, 0, r1.out);
  assert.match(
    r1.out,
    /No baseline measured on this machine for 2 cell\(s\) \(committed ones were measured on AMD EPYC, this is Intel\(R\) Xeon\(R\) CPU @ 2\.20GHz\)/,
  );
  assert.match(r1.out, /No verdict this time \(exit 0\): every cell was just recorded/);
  const own = join(work, 'results', 'baselines', INTEL.fingerprint, 'local');
  for (const k of ['a/t/s', 'b/t/s']) {
    const doc = JSON.parse(readFileSync(join(own, `${k}.json`), 'utf8'));
    assert.equal(doc.kind, 'tailgate.baseline');
    assert.equal(doc.provenance.machine.fingerprint, INTEL.fingerprint);
  }
  assert.ok(!existsSync(join(first, 'verdict.json')), 'nothing judged against itself');

  const second = await runOn(INTEL, join(work, 'second'));
  const r2 = await finish(work, second);
  assert.equal(r2.code, 0, r2.out);
  assert.match(r2.out, /2 cell\(s\) compared with this machine's own baselines/);
  const v2 = verdictOf(second);
  assert.equal(v2.overall, 'pass');
  for (const c of v2.cells) assert.ok(c.baselineFile.startsWith(own), c.baselineFile);

  // Twice as slow on a, confirmed by fresh runs as make bench's confirm-on-fail does.
  const slow = { medianMs: { 'a/t/s': 4 } };
  const third = await runOn(INTEL, join(work, 'third'), slow);
  const confirm = async (keys) => runOn(INTEL, join(work, 'third.confirm'), { cells: keys, ...slow });
  const r3 = await finish(work, third, undefined, { confirm });
  assert.equal(r3.code, 1, r3.out);
  assert.equal(verdictOf(third).cells.find((c) => c.cell === 'a/t/s').verdict, 'regression');
});

test('committed baselines win where they were measured on this machine; only the cells without one are recorded', async () => {
  const work = scratchDir('tg-own-mixed-');
  const committed = await runOn(EPYC, join(work, 'epyc-run'));
  assert.equal(
    (await runCli(['baseline', 'update', '--results', committed, '--baselines', join(work, 'baselines')])).code,
    0,
  );

  const run = await runOn(EPYC, join(work, 'run'), { cells: ['a/t/s', 'b/t/s', 'c/t/s'] });
  const r = await finish(work, run);
  assert.equal(r.code, 0, r.out);
  assert.match(r.out, /No baseline measured on this machine for 1 cell\(s\):/);
  assert.match(r.out, /c\/t\/s → .*epyc0vm\/local\/c\/t\/s\.json/);
  const v = verdictOf(run);
  assert.deepEqual(
    v.cells.map((c) => c.cell),
    ['a/t/s', 'b/t/s'],
    'the recorded cell is not judged',
  );
  for (const c of v.cells) assert.ok(c.baselineFile.startsWith(join(work, 'baselines')), c.baselineFile);
  assert.ok(!existsSync(join(work, 'results', 'baselines', EPYC.fingerprint, 'local', 'a')));
});

test('run --own-baselines is refused where it cannot apply (exit 2): --no-gate, empty', async () => {
  for (const args of [
    ['--no-gate', '--own-baselines', 'x'],
    ['--own-baselines', ''],
  ]) {
    // Refused before bench.yaml is read: nothing starts.
    const r = await runCli(['run', '--matrix', 'local', ...args]);
    assert.equal(r.code, 2, r.out);
    assert.match(r.out, /--own-baselines <dir> applies to a run gated against baselines/);
  }
});
