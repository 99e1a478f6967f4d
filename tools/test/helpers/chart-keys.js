// Checking the catalog's value keys against a controller's real chart: a key verified is
// one the chart declares (values.yaml or its values schema) and one whose value changes
// what the chart renders — a key the chart silently ignores (service.type in Traefik 41)
// fails.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { parse, stringify } from 'yaml';
import { helm } from './charts.js';
import { scratchDir } from './scratch.js';

export const readYaml = (file) => parse(readFileSync(file, 'utf8')) ?? {};

const isMap = (x) => x && typeof x === 'object' && !Array.isArray(x);

/** Helm's merge of values files: maps merge, anything else is replaced. */
export function mergeValues(...docs) {
  const out = {};
  for (const d of docs) mergeInto(out, d ?? {});
  return out;
}
function mergeInto(a, b) {
  for (const [k, v] of Object.entries(b)) {
    if (isMap(v) && isMap(a[k])) mergeInto(a[k], v);
    else a[k] = isMap(v) ? mergeValues(v) : structuredClone(v);
  }
}

/** Every leaf path a values document sets (maps walked, lists and scalars are leaves). */
export function leafPaths(doc, prefix = []) {
  return Object.entries(doc ?? {}).flatMap(([k, v]) =>
    isMap(v) && Object.keys(v).length ? leafPaths(v, [...prefix, k]) : [[...prefix, k].join('.')],
  );
}

export function getPath(doc, key) {
  let node = doc;
  for (const part of key.split('.')) {
    if (!isMap(node) || !(part in node)) return undefined;
    node = node[part];
  }
  return node;
}

function withPath(doc, key, fn) {
  const out = structuredClone(doc);
  const parts = key.split('.');
  let node = out;
  for (const part of parts.slice(0, -1)) node = node[part];
  fn(node, parts.at(-1));
  return out;
}

/** A value of the same shape that a chart reading it must render differently. */
export function mutate(v) {
  if (typeof v === 'boolean') return !v;
  if (typeof v === 'number') return v + 1;
  if (typeof v === 'string')
    return /^\d+$/.test(v) ? String(Number(v) + 1) : /^\d+s$/.test(v) ? `${parseInt(v) + 1}s` : `${v}x`;
  if (Array.isArray(v)) return v.length ? [...v, v[0]] : ['--tailgate-probe'];
  if (isMap(v)) {
    const [k] = Object.keys(v);
    return k === undefined ? { 'tailgate-probe': 'x' } : { ...v, [k]: mutate(v[k]) };
  }
  return 'tailgate-probe';
}

/** Does the chart declare the key: in its values.yaml, or in its values schema? */
export function declared(chartDir, key, schema) {
  const values = readYaml(join(chartDir, 'values.yaml'));
  if (getPath(values, key) !== undefined) return true;
  if (!schema) return false;
  let node = schema;
  for (const part of key.split('.')) {
    node = resolveRef(schema, node);
    const next =
      node?.properties?.[part] ?? (isMap(node?.additionalProperties) ? node.additionalProperties : undefined);
    if (!next) return false;
    node = next;
  }
  return true;
}

function resolveRef(root, node) {
  if (typeof node?.$ref === 'string' && node.$ref.startsWith('#/'))
    return node.$ref
      .slice(2)
      .split('/')
      .reduce((n, p) => n?.[p], root);
  return node;
}

// One scratch folder per process: renders run one at a time and rewrite its values file.
let scratch;

/** `helm template` of a chart with one values document; stdout, or throws with stderr. */
export function renderWith(chartDir, values, args = []) {
  scratch ??= scratchDir('tg-keys-');
  const file = join(scratch, 'values.yaml');
  writeFileSync(file, stringify(values));
  const r = spawnSync(helm, ['template', 't', chartDir, '-f', file, ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`helm template failed: ${r.stderr.trim().split('\n').at(-1)}`);
  return r.stdout;
}

/**
 * Why the chart ignores `key` in `values` (a string), or null when removing it or giving
 * it another value changes the rendered output.
 */
export function ignoredBecause(chartDir, values, key, args = []) {
  const before = renderWith(chartDir, values, args);
  const removed = renderWith(
    chartDir,
    withPath(values, key, (n, k) => delete n[k]),
    args,
  );
  if (removed !== before) return null;
  const changed = renderWith(
    chartDir,
    withPath(values, key, (n, k) => (n[k] = mutate(n[k]))),
    args,
  );
  if (changed !== before) return null;
  return `neither removing ${key} nor changing it (${JSON.stringify(getPath(values, key)).slice(0, 60)}) changes what the chart renders`;
}
