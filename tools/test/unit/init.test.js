// `tailgate init` writes a working adoption: bench.yaml names the controller's values file
// (the catalog's, copied beside it, so a PR has a value to change), `validate` accepts the
// output as it stands, examples/adopter is that output, and a second init overwrites nothing.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.js';
import { scratchDir } from '../helpers/scratch.js';
import { loadBench } from '../../src/config/load.js';

const ROOT = new URL('../../../', import.meta.url).pathname;
const catalogValues = (c) => readFileSync(join(ROOT, 'charts', 'controllers', c, 'values.yaml'), 'utf8');

test('init writes the controller values file that bench.yaml names, relative to bench.yaml, and validate accepts it', async () => {
  const dir = scratchDir('tg-init-values-');
  const r = await runCli(['init', '--controller', 'haproxy-ingress', '--dir', dir]);
  assert.equal(r.code, 0, r.out);
  const values = readFileSync(join(dir, 'haproxy-ingress-values.yaml'), 'utf8');
  const [head, ...rest] = values.split('\n');
  assert.match(head, /^# tailgate's catalog values for chart haproxy-ingress \d+\.\d+\.\d+ .*edit them in a PR/);
  assert.equal(rest.join('\n'), catalogValues('haproxy-ingress'), 'the rest is the catalog entry as it is');
  assert.match(readFileSync(join(dir, 'bench.yaml'), 'utf8'), /\n {4}values: haproxy-ingress-values\.yaml /);
  // Resolved beside bench.yaml, not from the working directory.
  assert.equal(
    loadBench(join(dir, 'bench.yaml')).controllers['haproxy-ingress'].valuesFile,
    join(dir, 'haproxy-ingress-values.yaml'),
  );
  const v = await runCli(['validate', '--config', join(dir, 'bench.yaml')]);
  assert.equal(v.code, 0, v.out);
  assert.match(r.out, /haproxy-ingress-values\.yaml: written \(the catalog's values for chart haproxy-ingress /);
  assert.match(r.out, /2\. commit bench\.yaml, haproxy-ingress-values\.yaml and \.github\/workflows\//);
  assert.match(r.out, /open a PR that changes a value in haproxy-ingress-values\.yaml/);
});

test('init never overwrites: bench.yaml present → refused, nothing written; a values file of the adopter is kept', async () => {
  const dir = scratchDir('tg-init-again-');
  assert.equal((await runCli(['init', '--controller', 'traefik', '--dir', dir])).code, 0);
  writeFileSync(join(dir, 'traefik-values.yaml'), '# ours\n');
  const again = await runCli(['init', '--controller', 'traefik', '--dir', dir]);
  assert.equal(again.code, 2, again.out);
  assert.match(again.out, /bench\.yaml exists; tailgate init never overwrites/);
  assert.equal(readFileSync(join(dir, 'traefik-values.yaml'), 'utf8'), '# ours\n');
  const fresh = scratchDir('tg-init-kept-');
  writeFileSync(join(fresh, 'traefik-values.yaml'), catalogValues('traefik'));
  const r = await runCli(['init', '--controller', 'traefik', '--dir', fresh]);
  assert.equal(r.code, 0, r.out);
  assert.match(r.out, /traefik-values\.yaml: kept/);
  assert.equal(readFileSync(join(fresh, 'traefik-values.yaml'), 'utf8'), catalogValues('traefik'));
});

test('examples/adopter holds what init --controller traefik writes (bench.yaml, the values file, the workflows)', async () => {
  const dir = scratchDir('tg-init-example-');
  assert.equal((await runCli(['init', '--controller', 'traefik', '--dir', dir])).code, 0);
  const example = join(ROOT, 'examples', 'adopter');
  const written = [
    'bench.yaml',
    'traefik-values.yaml',
    ...readdirSync(join(dir, '.github', 'workflows')).map((f) => join('.github', 'workflows', f)),
  ];
  for (const f of written)
    assert.equal(readFileSync(join(example, f), 'utf8'), readFileSync(join(dir, f), 'utf8'), `examples/adopter/${f}`);
});
