// Concurrent A/B on the local target: two data planes in front of the same pods, the
// engine (k6 or Vegeta) alternating requests; the raw output splits exactly into the two sides.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ingest } from '../../src/ingest/ingest.js';
import { runCell } from '../../src/targets/local/driver.js';
import { loadOutput } from '../../src/engines/index.js';
import { makeCell } from '../helpers/cells.js';
import { scratchDir } from '../helpers/scratch.js';

test('concurrent A/B: both data planes serve at once, each side gets the configured rate, nothing is lost', async () => {
  const scenario = { script: 'steady', rate: 200, duration: '3s', warmup: '1s', replicas: 2 };
  const cell = makeCell({ controller: { variant: 'nginx-dynamic' }, scenario });
  const head = makeCell({ controller: { variant: 'haproxy-runtime' }, scenario });
  cell.concurrent = { controller: head.controller, tuning: head.tuning };
  const dir = scratchDir('tg-ab-');
  const run = await runCell({ cell, cellDir: dir });
  assert.equal(run.load.exitCode, 0);
  assert.deepEqual(run.concurrent.sides, ['a', 'b']);
  assert.notEqual(run.concurrent.urls[0], run.concurrent.urls[1]);
  const output = loadOutput(run.load, dir);
  const meta = { rate: 200, durationMs: 3000 };
  const [a, b, all] = await Promise.all([
    ingest({ ...output, meta, side: 'a' }),
    ingest({ ...output, meta, side: 'b' }),
    ingest({ ...output, meta }),
  ]);
  assert.equal(a.requests.total + b.requests.total, all.requests.total, 'every request belongs to one side');
  assert.ok(
    Math.abs(a.requests.total - b.requests.total) <= 1,
    `${a.requests.total} vs ${b.requests.total}: strict alternation`,
  );
  for (const side of [a, b]) assert.ok(side.load.achievedRatio > 0.97, `achieved ${side.load.achievedRate}/s of 200/s`);
  assert.ok(
    run.concurrent.resources[0].cpuSeconds > 0 && run.concurrent.resources[1].cpuSeconds > 0,
    'both proxies did work',
  );
});

test('tailgate run --ab-head: every cell base and head at once, results per side, gated paired', async () => {
  const { runCli } = await import('../helpers/cli.js');
  const { existsSync, readdirSync, readFileSync, writeFileSync } = await import('node:fs');
  const root = scratchDir('tg-abcli-');
  const config = join(root, 'bench.yaml');
  writeFileSync(
    config,
    'apiVersion: tailgate/v1\nkind: Bench\ncontrollers:\n  dyn: { type: local, variant: nginx-dynamic }\n  slower: { type: local, variant: nginx-dynamic, proxyDelay: 1ms }\nscenarios:\n  steady: { script: steady, rate: 300, duration: 4s, warmup: 1s, replicas: 2 }\nmatrices:\n  m: { target: local, controllers: [dyn], scenarios: [steady], repetitions: 2 }\n',
  );
  const r = await runCli([
    'run',
    '--config',
    config,
    '--matrix',
    'm',
    '--ab-head',
    'slower',
    '--out',
    join(root, 'results'),
  ]);
  // A verdict: the head's ×1.5 p99 may still await its confirmation round (3).
  assert.ok([0, 1, 3].includes(r.code), r.out);
  const runDir = join(root, 'results', readdirSync(join(root, 'results'))[0]);
  for (const role of ['base', 'head'])
    for (const rep of [1, 2])
      assert.ok(
        existsSync(join(runDir, role, 'dyn', 'default', 'steady', `rep-${rep}`, 'result.json')),
        `${role} rep ${rep}`,
      );
  const head = JSON.parse(
    readFileSync(join(runDir, 'head', 'dyn', 'default', 'steady', 'rep-1', 'result.json'), 'utf8'),
  );
  assert.deepEqual(head.meta.ab, { side: 'b', role: 'head', controller: 'slower', tuning: 'default' });
  assert.equal(head.meta.pair, 1);
  // The sides swap every other pair: in pair 2 the head is k6's side a — and still the
  // slower one, so each side's requests went to its own data plane.
  const head2 = JSON.parse(
    readFileSync(join(runDir, 'head', 'dyn', 'default', 'steady', 'rep-2', 'result.json'), 'utf8'),
  );
  const base2 = JSON.parse(
    readFileSync(join(runDir, 'base', 'dyn', 'default', 'steady', 'rep-2', 'result.json'), 'utf8'),
  );
  assert.deepEqual([head2.meta.ab.side, base2.meta.ab.side], ['a', 'b']);
  assert.ok(
    head2.latency.percentiles.p50 > base2.latency.percentiles.p50 + 0.5,
    'the 1 ms head is slower in pair 2 too',
  );
  const v = JSON.parse(readFileSync(join(runDir, 'verdict.json'), 'utf8'));
  assert.equal(v.mode, 'paired');
  assert.equal(v.cells[0].design.paired, true, 'pairs matched by pair index');
  assert.ok(v.cells[0].metrics.find((m) => m.metric === 'p50').ratio > 1.5, "the head proxy's 1 ms shows at p50");
  const bad = await runCli([
    'run',
    '--config',
    config,
    '--matrix',
    'm',
    '--ab-head',
    'nope',
    '--out',
    join(root, 'results'),
  ]);
  assert.equal(bad.code, 2);
});

test("tailgate run --sides-out: a duet's sides where `tailgate gate` reads them, the verdict made there", async () => {
  const { runCli } = await import('../helpers/cli.js');
  const { existsSync, readdirSync, readFileSync, writeFileSync } = await import('node:fs');
  const root = scratchDir('tg-sides-');
  try {
    const config = join(root, 'bench.yaml');
    writeFileSync(
      config,
      'apiVersion: tailgate/v1\nkind: Bench\ncontrollers:\n  dyn: { type: local, variant: nginx-dynamic }\nscenarios:\n  steady: { script: steady, rate: 300, duration: 4s, warmup: 1s, replicas: 2 }\nmatrices:\n  m: { target: local, controllers: [dyn], scenarios: [steady] }\n',
    );
    const cells = join(root, 'cells');
    const args = ['run', '--config', config, '--matrix', 'm', '--out', join(cells, 'duet'), '--sides-out', cells];
    const r = await runCli([...args, '--ab-head', 'dyn']);
    assert.ok([0, 1, 3].includes(r.code), r.out);
    const [run] = readdirSync(join(cells, 'duet'));
    for (const side of ['base', 'head']) {
      assert.ok(existsSync(join(cells, side, `duet-${run}`, 'dyn', 'default', 'steady', 'rep-1', 'result.json')), side);
      assert.ok(!existsSync(join(cells, 'duet', run, side)), `${side} moved, not copied`);
    }
    // The gate as the workflow runs it: in the project's folder (reads stay inside it).
    const tailgate = new URL('../../bin/tailgate.js', import.meta.url).pathname;
    const g = spawnSync(process.execPath, [tailgate, 'gate', '--results', 'cells', '--mode', 'concurrent'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, GITHUB_STEP_SUMMARY: '', GITHUB_OUTPUT: '' },
    });
    assert.ok([0, 1, 3].includes(g.status), g.stdout + g.stderr);
    const v = JSON.parse(readFileSync(join(root, 'gate-out', 'verdict.json'), 'utf8'));
    assert.deepEqual(
      v.cells.map((c) => c.cell),
      ['dyn/default/steady'],
    );
    // A link where a side goes: refused (exit 2), nothing written through it.
    const linked = join(root, 'linked');
    const elsewhere = mkdtempSync(join(root, 'elsewhere-'));
    const { mkdirSync, symlinkSync } = await import('node:fs');
    mkdirSync(linked);
    symlinkSync(elsewhere, join(linked, 'base'));
    const l = await runCli([
      ...args.slice(0, 5),
      '--out',
      join(linked, 'duet'),
      '--sides-out',
      linked,
      '--ab-head',
      'dyn',
    ]);
    assert.equal(l.code, 2, l.out);
    assert.match(l.out, /symbolic link/);
    assert.deepEqual(readdirSync(elsewhere), []);
    // Not a duet: nothing to lay out, refused before any process starts.
    const alone = await runCli(args);
    assert.equal(alone.code, 2, alone.out);
    assert.match(alone.out, /--sides-out applies to a duet/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
