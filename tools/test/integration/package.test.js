// `npx tailgate` from the npm package alone: pack, install into an empty project,
// validate and plan a bench.yaml there — no dev-only paths at run time.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

const ROOT = new URL('../../../', import.meta.url).pathname;

test('package: npm pack installs and runs tailgate outside this repository', { timeout: 180_000 }, () => {
  const work = mkdtempSync(join(tmpdir(), 'tg-pack-'));
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
  const v = spawnSync(bin, ['validate'], { cwd: app, encoding: 'utf8' });
  assert.equal(v.status, 0, v.stdout + v.stderr);
  const p = spawnSync(bin, ['plan', '--matrix', 'local'], { cwd: app, encoding: 'utf8' });
  assert.equal(p.status, 0, p.stderr);
  assert.match(p.stdout, /nginx-reload\/default\/steady\/rep-1/);
  const pr = spawnSync(bin, ['plan', '--matrix', 'pr'], { cwd: app, encoding: 'utf8' });
  assert.match(pr.stdout, /traefik\/default\/pod-kill\/rep-3/);
  const installed = readdirSync(join(app, 'node_modules', 'tailgate'));
  for (const dir of ['k6', 'schemas', 'charts', 'clusters'])
    assert.ok(installed.includes(dir), `${dir} ships in the package`);
  assert.ok(!readdirSync(join(app, 'node_modules', 'tailgate', 'tools')).includes('test'), 'tests do not ship');
});
