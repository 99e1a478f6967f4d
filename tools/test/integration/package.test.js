// `npx tailgate` from the npm package alone: pack, install into an empty project,
// validate and plan a bench.yaml there — no dev-only paths at run time.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { scratchDir } from '../helpers/scratch.js';

const ROOT = new URL('../../../', import.meta.url).pathname;

test('package: npm pack installs and runs tailgate outside this repository', { timeout: 180_000 }, () => {
  const work = scratchDir('tg-pack-');
  execFileSync('npm', ['pack', '--pack-destination', work, '--silent'], { cwd: ROOT, stdio: 'pipe' });
  const tgz = readdirSync(work).find((f) => f.endsWith('.tgz'));
  const app = join(work, 'app');
  execFileSync('mkdir', ['-p', app]);
  writeFileSync(join(app, 'package.json'), '{"name":"adopter","private":true}');
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', join(work, tgz)], {
    cwd: app,
    stdio: 'pipe',
  });
  const bin = join(app, 'node_modules', '.bin', 'tailgate');
  const init = spawnSync(bin, ['init', '--controller', 'traefik'], { cwd: app, encoding: 'utf8' });
  assert.equal(init.status, 0, init.stdout + init.stderr);
  // bench.yaml names the values file init copied from the package's catalog.
  assert.match(readFileSync(join(app, 'bench.yaml'), 'utf8'), /values: traefik-values\.yaml/);
  assert.ok(existsSync(join(app, 'traefik-values.yaml')), 'init wrote the values file');
  const v = spawnSync(bin, ['validate'], { cwd: app, encoding: 'utf8' });
  assert.equal(v.status, 0, v.stdout + v.stderr);
  const p = spawnSync(bin, ['plan', '--matrix', 'local'], { cwd: app, encoding: 'utf8' });
  assert.equal(p.status, 0, p.stderr);
  assert.match(p.stdout, /nginx-reload\/default\/steady\/rep-1/);
  // init's gates: pr (steady, 3 pairs and up to 10 while undecided), pr-failover (pod kills).
  const pr = spawnSync(bin, ['plan', '--matrix', 'pr'], { cwd: app, encoding: 'utf8' });
  assert.match(pr.stdout, /traefik\/default\/steady\/rep-10/);
  const failover = spawnSync(bin, ['plan', '--matrix', 'pr-failover'], { cwd: app, encoding: 'utf8' });
  assert.match(failover.stdout, /traefik\/default\/pod-kill\/rep-3/);
  const installed = readdirSync(join(app, 'node_modules', 'tailgate'));
  for (const dir of ['k6', 'schemas', 'charts', 'clusters'])
    assert.ok(installed.includes(dir), `${dir} ships in the package`);
  assert.ok(!readdirSync(join(app, 'node_modules', 'tailgate', 'tools')).includes('test'), 'tests do not ship');
});

// examples/adopter is a complete caller repository: its bench.yaml is what `tailgate init`
// writes, and with tailgate installed from the package it runs a local cell on each side
// and the CI gate script (tailgate's code in node_modules, the project in the repository).
test(
  'adopter: the example repository validates, runs a cell per side and gets a verdict and a comment',
  { timeout: 300_000 },
  () => {
    const work = scratchDir('tg-adopter-');
    execFileSync('npm', ['pack', '--pack-destination', work, '--silent'], { cwd: ROOT, stdio: 'pipe' });
    const tgz = readdirSync(work).find((f) => f.endsWith('.tgz'));
    const repo = join(work, 'repo');
    cpSync(join(ROOT, 'examples', 'adopter'), repo, { recursive: true });
    execFileSync(
      'npm',
      ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', join(work, tgz)],
      {
        cwd: repo,
        stdio: 'pipe',
      },
    );
    const bin = join(repo, 'node_modules', '.bin', 'tailgate');
    // k6 as `make setup` installed it here (an adopter's machine has it on PATH).
    const env = { ...process.env, PATH: `${join(ROOT, '.tools', 'bin')}:${process.env.PATH}` };
    const run = (args) => spawnSync(bin, args, { cwd: repo, encoding: 'utf8', env });
    const fresh = join(work, 'fresh');
    execFileSync('mkdir', ['-p', fresh]);
    // examples/adopter is init with the manual and nightly callers (tools/test/unit/init.test.js).
    assert.equal(run(['init', '--controller', 'traefik', '--with', 'dispatch,nightly', '--dir', fresh]).status, 0);
    for (const f of ['bench.yaml', 'traefik-values.yaml'])
      assert.equal(
        readFileSync(join(repo, f), 'utf8'),
        readFileSync(join(fresh, f), 'utf8'),
        `examples/adopter/${f} is what tailgate init writes`,
      );
    const v = run(['validate']);
    assert.equal(v.status, 0, v.stdout + v.stderr);
    const cell = ['--matrix', 'local', '--controllers', 'nginx-reload', '--scenarios', 'steady', '--rate', '200'];
    for (const side of ['base', 'head']) {
      const r = run(['run', ...cell, '--duration', '6s', '--repetitions', '1', '--out', `results/${side}`]);
      assert.ok([0, 3].includes(r.status), `${side} run: exit ${r.status}\n${r.stdout}${r.stderr}`);
    }
    const gate = spawnSync(join(repo, 'node_modules', 'tailgate', 'tools', 'ci', 'gate.sh'), [], {
      cwd: repo,
      encoding: 'utf8',
      env: {
        ...process.env,
        MODE: 'paired',
        BASE_RESULTS: 'results/base',
        RESULTS: 'results/head',
        OUT: 'gate-out',
        MATRIX: 'local',
      },
    });
    const verdict = JSON.parse(readFileSync(join(repo, 'gate-out', 'verdict.json'), 'utf8'));
    assert.equal(gate.status, verdict.exitCode, gate.stdout + gate.stderr);
    const comment = readFileSync(join(repo, 'gate-out', 'comment', 'comment.md'), 'utf8');
    assert.match(comment, /nginx-reload\/default\/steady/);
    assert.ok(existsSync(join(repo, 'gate-out', 'comment', 'meta.json')));
  },
);
