#!/usr/bin/env node
// Kubernetes OpenAPI v2 (swagger.json from the k8s.io/kubernetes module, so it is
// available offline through the Go module proxy) -> one standalone JSON schema per
// kind, named as kubeconform expects: <kind>[-<group>]-<version>.json, refs inlined.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [swaggerFile, outDir] = process.argv.slice(2);
if (!swaggerFile || !outDir) {
  console.error('usage: k8s-schemas.js <swagger.json> <out-dir>');
  process.exit(2);
}
const { definitions } = JSON.parse(readFileSync(swaggerFile, 'utf8'));
mkdirSync(outDir, { recursive: true });

// Recursive types (JSONSchemaProps) are cut at the second visit: CRD schemas are
// not what tailgate validates.
function inline(node, seen) {
  if (Array.isArray(node)) return node.map((n) => inline(n, seen));
  if (!node || typeof node !== 'object') return node;
  // Fields YAML writes as numbers or strings (maxSurge: 1, cpu: 0.5).
  if (node.format === 'int-or-string') return { oneOf: [{ type: 'string' }, { type: 'integer' }] };
  if (node.$ref === '#/definitions/io.k8s.apimachinery.pkg.api.resource.Quantity')
    return { oneOf: [{ type: 'string' }, { type: 'number' }] };
  if (node.$ref) {
    const name = node.$ref.replace('#/definitions/', '');
    if (seen.includes(name)) return {};
    return inline(definitions[name], [...seen, name]);
  }
  const out = {};
  for (const [k, v] of Object.entries(node)) {
    if (k.startsWith('x-kubernetes')) continue;
    out[k] =
      k === 'properties'
        ? Object.fromEntries(Object.entries(v).map(([p, s]) => [p, inline(s, seen)]))
        : inline(v, seen);
  }
  // kubeconform -strict: unknown fields are errors.
  if (out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

let n = 0;
for (const [name, def] of Object.entries(definitions)) {
  for (const gvk of def['x-kubernetes-group-version-kind'] ?? []) {
    const group = gvk.group ? `-${gvk.group.split('.')[0]}` : '';
    const file = `${gvk.kind.toLowerCase()}${group}-${gvk.version}.json`;
    const schema = inline(def, [name]);
    // apiVersion/kind may be omitted by the spec's required list but are always set.
    writeFileSync(join(outDir, file), JSON.stringify({ $schema: 'http://json-schema.org/schema#', ...schema }));
    n++;
  }
}
// The definitions themselves, for chart values schemas that $ref them by name (NGINX
// Ingress Controller's point at a remote copy of the same spec): the same two fixes.
const fixed = structuredClone(definitions);
fixed['io.k8s.apimachinery.pkg.util.intstr.IntOrString'] = { oneOf: [{ type: 'string' }, { type: 'integer' }] };
fixed['io.k8s.apimachinery.pkg.api.resource.Quantity'] = { oneOf: [{ type: 'string' }, { type: 'number' }] };
writeFileSync(join(outDir, '_definitions.json'), JSON.stringify({ definitions: fixed }));
console.log(`${n} schemas and _definitions.json written to ${outDir}`);
