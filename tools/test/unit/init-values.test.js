// The values file `init` writes is the adopter's: it carries no constraint of tailgate's
// own machines. Traefik's once pinned image v3.6.12 (what tailgate's offline build makes),
// so adopters gated an older Traefik than their chart ships. The chart's appVersion is
// what they get unless they pin; tailgate's offline runs keep their pins in
// offline-values.yaml, which only an offline run (TAILGATE_OFFLINE=1) lays on top.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { PINS } from '../../src/version.js';
import { controllerChart, helm, renderDocs, ROOT } from '../helpers/charts.js';
import { runCli } from '../helpers/cli.js';
import { scratchDir } from '../helpers/scratch.js';

const CATALOG = join(ROOT, 'charts', 'controllers');
const NAMES = readdirSync(CATALOG).filter((n) => existsSync(join(CATALOG, n, 'controller.yaml')));

// Every `image` a values document sets with a tag or digest, as "path: value".
function imagePins(doc, path = []) {
  if (!doc || typeof doc !== 'object') return [];
  return Object.entries(doc).flatMap(([k, v]) => {
    const at = [...path, k];
    if (k === 'image' && typeof v === 'string') return [`${at.join('.')}: ${v}`];
    if (k === 'image' && v && typeof v === 'object')
      return ['tag', 'digest'].filter((f) => v[f] !== undefined).map((f) => `${at.join('.')}.${f}: ${v[f]}`);
    return imagePins(v, at);
  });
}

async function initValues(name) {
  const dir = scratchDir(`tg-init-values-${name}-`);
  const r = await runCli(['init', '--controller', name, '--dir', dir]);
  assert.equal(r.code, 0, r.out);
  return join(dir, `${name}-values.yaml`);
}

test('init writes values that pin no image, for every catalog controller; the offline pins stay in offline-values.yaml', async () => {
  for (const name of NAMES) {
    const file = await initValues(name);
    assert.deepEqual(imagePins(parse(readFileSync(file, 'utf8'))), [], `${name}: init's values pin an image`);
  }
  // make test-kind's offline images (tools/scripts/kind-env.sh) are still what an offline run installs.
  for (const name of ['traefik', 'haproxy-ingress']) {
    const offline = parse(readFileSync(join(CATALOG, name, 'offline-values.yaml'), 'utf8'));
    const tag = offline.image?.tag ?? offline.controller?.image?.tag;
    assert.equal(tag, PINS[name], `${name}: offline-values.yaml pins tools/versions.json's image`);
  }
});

test("init's traefik values install the chart's appVersion online, and the offline build's image offline", async (t) => {
  const chart = controllerChart('traefik');
  if (chart.skip) return t.skip(chart.skip);
  if (!helm) return t.skip('helm not installed (make setup)');
  const appVersion = parse(readFileSync(join(chart.dir, 'Chart.yaml'), 'utf8')).appVersion;
  const values = await initValues('traefik');
  const image = (...files) => {
    const args = ['template', 'traefik', chart.dir, '--kube-version', PINS.kubernetes, '-n', 'tailgate-ingress'];
    const docs = renderDocs([...args, ...files.flatMap((f) => ['-f', f])]);
    return docs.find((d) => d.kind === 'Deployment').spec.template.spec.containers[0].image;
  };
  assert.match(image(values), new RegExp(`traefik:${appVersion.replace(/\./g, '\\.')}$`));
  assert.equal(image(values, join(CATALOG, 'traefik', 'offline-values.yaml')), `localhost/traefik:${PINS.traefik}`);
});
