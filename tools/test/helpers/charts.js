// Rendering and validating charts in tests: `helm template` -> objects, kubeconform on
// what the API server would store, custom resources against their CRDs' own schemas.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments, stringify } from 'yaml';
import { PINS } from '../../src/version.js';
import { which } from '../../src/exec/tools.js';
import { InputError } from '../../src/errors.js';
import { verifiedArchive } from '../../src/registry/chart-archive.js';
import { scratchDir } from './scratch.js';

export const ROOT = new URL('../../../', import.meta.url).pathname;
export const SCHEMAS = join(ROOT, '.tools', 'k8s-schemas', PINS.kubernetes);
export const helm = which('helm');
export const kubeconform = which('kubeconform');

/** `helm template …` of a chart -> its objects. */
export function renderDocs(args) {
  const out = spawnSync(helm, args, { encoding: 'utf8' });
  assert.equal(out.status, 0, out.stderr);
  return out.stdout
    .split(/^---$/m)
    .map((d) => parse(d))
    .filter((d) => d?.kind);
}

/**
 * A controller's real chart as offline runs install it: the archive in the charts folder,
 * checked against the catalog's sha256 by the run's own code, unpacked once. `{ dir,
 * entry }`, or `{ skip }`: the one line saying which archive is missing or wrong.
 */
const unpacked = new Map();
export function controllerChart(name) {
  if (unpacked.has(name)) return unpacked.get(name);
  const entry = parse(readFileSync(join(ROOT, 'charts', 'controllers', name, 'controller.yaml'), 'utf8'));
  let out;
  try {
    const file = verifiedArchive(entry.chart, { where: `charts/controllers/${name}/controller.yaml chart.sha256` });
    const dir = scratchDir(`tg-chart-${name}-`);
    const r = spawnSync('tar', ['-xzf', file, '-C', dir], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    // Helm does not follow links inside a chart archive (nginx-ingress's crds/ points out
    // of its chart folder): neither does the unpacked copy.
    spawnSync('find', [dir, '-type', 'l', '-delete']);
    out = { dir: join(dir, entry.chart.name), entry };
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    out = { skip: err.message, entry };
  }
  unpacked.set(name, out);
  return out;
}

/** The chart a Go module holds (served by the Go module proxy), or null. */
export function upstreamChart(up) {
  const r = spawnSync('go', ['mod', 'download', '-json', `${up.goModule}@${up.version}`], {
    encoding: 'utf8',
    cwd: '/tmp',
    env: { ...process.env, GOFLAGS: '-mod=mod' },
  });
  return r.status === 0 ? join(JSON.parse(r.stdout).Dir, up.path) : null;
}

/**
 * The API server drops null fields (annotations: null) that kubeconform's strict
 * schemas refuse: validate what the server would store. `crds`: a folder from
 * crdSchemas(); custom resources are then checked too, not skipped.
 */
export function assertValid(docs, { crds } = {}) {
  const v = validate(docs.map((d) => stringify(dropNulls(d))).join('---\n'), { crds });
  assert.equal(v.status, 0, v.stdout + v.stderr);
  return v;
}

export function validate(manifests, { crds } = {}) {
  const locations = [`${SCHEMAS}/{{.ResourceKind}}{{.KindSuffix}}.json`];
  if (crds) locations.push(`${crds}/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json`);
  return spawnSync(
    kubeconform,
    [
      '-strict',
      '-summary',
      ...(crds ? [] : ['-ignore-missing-schemas']),
      ...locations.flatMap((l) => ['-schema-location', l]),
      '-',
    ],
    { input: manifests, encoding: 'utf8' },
  );
}

/**
 * JSON schemas for kubeconform from CustomResourceDefinition files (or folders of them):
 * each served version's openAPIV3Schema, made strict as kubeconform's own CRD converter
 * does (an object that lists its properties admits no others) — a misspelt key in a
 * custom resource fails like one in a Deployment.
 */
export function crdSchemas(paths) {
  const dir = scratchDir('tg-crd-schemas-');
  let count = 0;
  for (const file of paths.flatMap(yamlFiles)) {
    for (const doc of parseAllDocuments(readFileSync(file, 'utf8'))) {
      const crd = doc.toJS();
      if (crd?.kind !== 'CustomResourceDefinition') continue;
      for (const v of crd.spec.versions) {
        if (!v.schema?.openAPIV3Schema) continue;
        mkdirSync(join(dir, crd.spec.group), { recursive: true });
        const name = `${crd.spec.names.kind.toLowerCase()}_${v.name}.json`;
        writeFileSync(join(dir, crd.spec.group, name), JSON.stringify(strict(v.schema.openAPIV3Schema)));
        count++;
      }
    }
  }
  assert.ok(count > 0, `no CRD schema found in ${paths.join(', ')}`);
  return dir;
}

function yamlFiles(path) {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).flatMap((f) =>
    /\.ya?ml$/.test(f) || statSync(join(path, f)).isDirectory() ? yamlFiles(join(path, f)) : [],
  );
}

// Walks schema nodes only (a field may itself be called "properties").
function strict(node) {
  if (!node || typeof node !== 'object') return node;
  const out = { ...node };
  if (out.properties)
    out.properties = Object.fromEntries(Object.entries(out.properties).map(([k, v]) => [k, strict(v)]));
  if (out.items) out.items = strict(out.items);
  if (typeof out.additionalProperties === 'object') out.additionalProperties = strict(out.additionalProperties);
  for (const k of ['allOf', 'anyOf', 'oneOf']) if (out[k]) out[k] = out[k].map(strict);
  if (out.properties && out.additionalProperties === undefined && !out['x-kubernetes-preserve-unknown-fields'])
    out.additionalProperties = false;
  return out;
}

export function dropNulls(x) {
  if (Array.isArray(x)) return x.map(dropNulls);
  if (x && typeof x === 'object')
    return Object.fromEntries(
      Object.entries(x)
        .filter(([, v]) => v !== null)
        .map(([k, v]) => [k, dropNulls(v)]),
    );
  return x;
}

/**
 * A chart whose module holds its source, not its release (Envoy Gateway: values.tmpl.yaml
 * with the image left as placeholders): copied out of the read-only module cache, the
 * placeholders filled (`set`), the version its release would carry.
 */
export function chartFromTemplate(src, { file, set }, { version, appVersion }) {
  const chart = join(scratchDir('tg-chart-'), 'chart');
  cpSync(src, chart, { recursive: true });
  const values = readFileSync(join(src, file), 'utf8').replace(/\$\{(\w+)\}/g, (m, k) => set[k] ?? m);
  assert.doesNotMatch(values, /\$\{\w+\}/, 'every placeholder of the values template is filled');
  writeFileSync(join(chart, 'values.yaml'), values);
  const meta = readFileSync(join(src, 'Chart.yaml'), 'utf8')
    .replace(/^version: .*$/m, `version: ${version}`)
    .replace(/^appVersion: .*$/m, `appVersion: "${appVersion}"`);
  writeFileSync(join(chart, 'Chart.yaml'), meta);
  return chart;
}
