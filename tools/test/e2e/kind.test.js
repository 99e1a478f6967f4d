// End to end on a real kind cluster built offline (../shared/offline-kind): the
// backend chart, Traefik from its locally built image, steady and pod-kill through
// the same run -> ingest -> report code as every other target. Run by make test-kind.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

const ROOT = new URL('../../../', import.meta.url).pathname;
const CLI = join(ROOT, 'tools', 'bin', 'tailgate.js');

test(
  'kind e2e: traefik, steady and pod-kill from the runner, steady from inside the cluster',
  { timeout: 20 * 60_000 },
  () => {
    const out = mkdtempSync(join(tmpdir(), 'tg-kind-'));
    const run = spawnSync(
      process.execPath,
      [CLI, 'run', '--config', 'tools/test/fixtures/kind/bench.yaml', '--matrix', 'e2e', '--out', out],
      { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    console.log(run.stdout, run.stderr);
    assert.equal(run.status, 0, 'tailgate run');
    const runDir = join(out, readdirSync(out)[0]);
    for (const scenario of ['steady', 'pod-kill', 'inside']) {
      const file = join(runDir, 'traefik', 'default', scenario, 'rep-1', 'result.json');
      assert.ok(existsSync(file), `${file} written`);
      const r = JSON.parse(readFileSync(file, 'utf8'));
      assert.equal(r.meta.target, 'kind');
      assert.ok(r.requests.total >= (scenario === 'inside' ? 1400 : 1500), `${scenario}: ${r.requests.total} requests`);
      assert.ok(r.load.droppedRatio < 0.01, `${scenario}: load delivered`);
      assert.ok(r.latency.percentiles.p99 > 0);
      if (scenario === 'pod-kill')
        assert.ok(r.events.filter((e) => e.type === 'pod-killed').length >= 2, 'pods were killed through kubectl');
      if (scenario !== 'pod-kill') assert.equal(r.errors.total, 0, `${scenario}: steady state has no errors`);
      if (scenario === 'inside')
        assert.ok(existsSync(join(runDir, 'traefik', 'default', 'inside', 'rep-1', 'k6-job.json')), 'ran as a Job');
    }
    const report = spawnSync(process.execPath, [CLI, 'report', runDir, '--charts', join(runDir, 'charts')], {
      encoding: 'utf8',
    });
    assert.equal(report.status, 0, report.stderr);
    console.log(report.stdout);
    assert.ok(existsSync(join(runDir, 'charts', 'traefik__default__pod-kill', 'timeline.png')));
    const left = spawnSync('kind', ['get', 'clusters'], { encoding: 'utf8' }).stdout;
    assert.ok(!/tailgate-/.test(left), `clusters left: ${left}`);
  },
);

test(
  'kind e2e: default -> tuned on one cluster per controller (Traefik, haproxy-ingress), steady and pod-kill',
  { timeout: 30 * 60_000 },
  () => {
    const out = mkdtempSync(join(tmpdir(), 'tg-kind-tuning-'));
    const started = Date.now();
    const run = spawnSync(
      process.execPath,
      [CLI, 'run', '--config', 'tools/test/fixtures/kind/bench.yaml', '--matrix', 'e2e-tuning', '--out', out],
      { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    console.log(run.stdout, run.stderr);
    assert.equal(run.status, 0, 'tailgate run');
    const runDir = join(out, readdirSync(out)[0]);
    for (const controller of ['traefik', 'haproxy-ingress'])
      for (const tuning of ['default', 'tuned'])
        for (const scenario of ['steady', 'pod-kill']) {
          const cell = join(runDir, controller, tuning, scenario, 'rep-1');
          const r = JSON.parse(readFileSync(join(cell, 'result.json'), 'utf8'));
          const id = `${controller}/${tuning}/${scenario}`;
          assert.ok(r.requests.total >= 1500, `${id}: ${r.requests.total} requests`);
          assert.ok(r.load.droppedRatio < 0.01, `${id}: load delivered`);
          if (scenario === 'steady') assert.equal(r.errors.total, 0, `${id}: ${r.errors.total} errors in steady state`);
          else assert.ok(r.events.filter((e) => e.type === 'pod-killed').length >= 2, `${id}: pods were killed`);
          assert.ok(existsSync(join(cell, 'proxy')), `${id}: effective configuration captured`);
        }
    // What the tunings changed in the data plane, read from the pods (not the values files).
    assert.match(run.stdout, /traefik\/tuned \(steady\): .*--serversTransport\.maxIdleConnsPerHost \(not set\) → 320/);
    assert.match(run.stdout, /haproxy-ingress\/tuned \(steady\): .*maxconn .*→ 8192/);
    assert.match(run.stdout, /haproxy-ingress\/tuned \(steady\): .*sysctl net\.core\.somaxconn \d+ → 32768/);
    const report = spawnSync(process.execPath, [CLI, 'report', runDir, '--charts', join(runDir, 'charts')], {
      encoding: 'utf8',
    });
    assert.equal(report.status, 0, report.stderr);
    assert.ok(Date.now() - started < 25 * 60_000, "the tuning switch does not wait out helm's 5-minute timeout");
    const left = spawnSync('kind', ['get', 'clusters'], { encoding: 'utf8' }).stdout;
    assert.ok(!/tailgate-/.test(left), `clusters left: ${left}`);
  },
);

test(
  'kind e2e: migration — Traefik via Ingress vs via Gateway API (HTTPRoute) vs haproxy-ingress',
  { timeout: 40 * 60_000 },
  () => {
    const out = mkdtempSync(join(tmpdir(), 'tg-kind-migration-'));
    const run = spawnSync(
      process.execPath,
      [CLI, 'run', '--config', 'tools/test/fixtures/kind/bench.yaml', '--matrix', 'e2e-migration', '--out', out],
      { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    console.log(run.stdout, run.stderr);
    assert.equal(run.status, 0, 'tailgate run');
    // The HTTPRoute was Accepted and the Gateway Programmed before any load (the run
    // would have stopped at those steps otherwise).
    assert.match(run.stdout, /wait until Gateway traefik-gateway is Programmed/);
    assert.match(run.stdout, /wait until the HTTPRoute is Accepted/);
    const runDir = join(out, readdirSync(out)[0]);
    for (const controller of ['traefik', 'traefik-gateway', 'haproxy-ingress'])
      for (const rep of [1, 2]) {
        const r = JSON.parse(
          readFileSync(join(runDir, controller, 'default', 'steady', `rep-${rep}`, 'result.json'), 'utf8'),
        );
        assert.ok(
          r.requests.total >= 1500 && r.errors.total === 0,
          `${controller} steady rep ${rep}: ${r.requests.total} requests, ${r.errors.total} errors`,
        );
      }
    const md = join(runDir, 'migration.md');
    const m = spawnSync(
      process.execPath,
      [
        CLI,
        'compare',
        '--migration',
        '--results',
        runDir,
        '--from',
        'traefik',
        '--markdown',
        md,
        '--out',
        join(runDir, 'migration.json'),
      ],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    );
    console.log(m.stdout, m.stderr);
    assert.ok([0, 1, 3].includes(m.status), `migration verdict exit ${m.status}`);
    assert.match(
      readFileSync(md, 'utf8'),
      /\| scenario \(vs traefik\) \| traefik-gateway \| haproxy-ingress \||\| scenario \(vs traefik\) \| haproxy-ingress \| traefik-gateway \|/,
    );
    const left = spawnSync('kind', ['get', 'clusters'], { encoding: 'utf8' }).stdout;
    assert.ok(!/tailgate-/.test(left), `clusters left: ${left}`);
  },
);
