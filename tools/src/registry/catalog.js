// charts/controllers/<name>/: the upstream chart, base values and tuning overlays.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { isMap, isSeq, LineCounter, parseDocument } from 'yaml';
import { ROOT } from '../exec/tools.js';
import { InputError } from '../errors.js';
import { schemaProblems } from '../schema.js';

export const CATALOG_DIR = join(ROOT, 'charts', 'controllers');

/** The catalog's entries: the folders of charts/controllers with a controller.yaml. */
export function catalogNames() {
  return readdirSync(CATALOG_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(CATALOG_DIR, d.name, 'controller.yaml')))
    .map((d) => d.name)
    .sort();
}

export function catalogEntry(name, controller) {
  const entryName = controller.catalog ?? name;
  const dir = join(CATALOG_DIR, entryName);
  const file = join(dir, 'controller.yaml');
  // A controller of the file's own (a chart and a values file of its own) needs no entry;
  // any other name must be one, or a misspelt one would ask for a values file nobody wrote.
  if (!existsSync(file) && (controller.catalog || !controller.values))
    throw Object.assign(
      new InputError(
        controller.catalog
          ? `controller "${name}": "${entryName}" is not in the catalog (charts/controllers): ${catalogNames().join(', ')}`
          : `controller "${name}" is not in the catalog (charts/controllers): ${catalogNames().join(', ')}; name an entry (catalog: <entry>), or give it a values file of its own (values:)`,
      ),
      { field: controller.catalog ? 'catalog' : undefined },
    );
  const entry = existsSync(file) ? readCatalogFile(file) : {};
  const values =
    controller.valuesFile ?? (controller.values ? join(ROOT, controller.values) : join(dir, 'values.yaml'));
  if (!existsSync(values)) throw new InputError(`controller "${name}": values file ${values} not found`);
  const routing = routingOf(name, controller, entry);
  return {
    name,
    chart: pinnedChart(controller.chart, entry.chart),
    ingressClass: controller.ingressClass ?? entry.ingressClass ?? name,
    podSelector: entry.podSelector ?? `app.kubernetes.io/name=${name}`,
    // Where the proxy pods are not the controller's own (Envoy Gateway): its logs too
    // when an install or rollout fails.
    controlPlaneSelector: entry.controlPlaneSelector ?? null,
    // What the chart runs the controller as: `kubectl rollout status <workload>`.
    workload: entry.workload ?? 'deployment',
    values,
    overlay: (tuning) => {
      if (tuning === 'default') return null;
      const overlay = join(dir, 'overlays', `${tuning}.yaml`);
      if (!existsSync(overlay))
        throw new InputError(
          `controller "${name}": no overlay for tuning "${tuning}" (expected ${overlay}); tunings map to each controller's own keys, see charts/controllers/README.md`,
        );
      return overlay;
    },
    offlineValues: existsSync(join(dir, 'offline-values.yaml')) ? join(dir, 'offline-values.yaml') : null,
    offlineImages: entry.offlineImages ?? [],
    // A chart that is part of a Go module (Envoy Gateway's): offline it comes from the
    // module cache. Every other chart comes from the charts folder (chart-archive.js).
    upstream: entry.upstream ?? null,
    pinFile: file,
    // Why the entry cannot run without registries (controller.yaml `offline:`).
    offlineRefusal: entry.offline ?? null,
    effectiveConfig: entry.effectiveConfig ?? null,
    // How each bench.yaml tuning knob lands in the chart's keys, or why it does not.
    knobs: entry.knobs ?? {},
    routing,
    gateway: routing === 'gateway' ? gatewayOf(name, controller, entry, dir) : null,
    // A chart of ours installed beside the upstream one (Envoy Gateway: the Gateway,
    // EnvoyProxy and policies its controller turns into Envoy pods).
    dataplane: entry.dataplane ? join(dir, entry.dataplane) : null,
    // Two releases in one cluster (a duet): controller.yaml `duet: {a, b, ingressClassB}`
    // — values that keep side a to its own IngressClass, and side b's class and host port;
    // with routing: gateway also `gatewayA`, `gatewayB` (each side its own GatewayClass and
    // Gateway) and `gatewayNameB`, the head's Gateway.
    duet: entry.duet
      ? {
          a: join(dir, entry.duet.a),
          b: join(dir, entry.duet.b),
          ingressClassB: entry.duet.ingressClassB,
          gateway:
            entry.duet.gatewayA && entry.duet.gatewayB && entry.duet.gatewayNameB
              ? { a: join(dir, entry.duet.gatewayA), b: join(dir, entry.duet.gatewayB), nameB: entry.duet.gatewayNameB }
              : null,
        }
      : null,
  };
}

/**
 * A controller.yaml under schemas/controller.schema.json: a key it does not know is an
 * error naming the file, the line and the key (every one at once, exit 2) — never a
 * default silently taken instead.
 */
export function readCatalogFile(file) {
  const counter = new LineCounter();
  const doc = parseDocument(readFileSync(file, 'utf8'), { lineCounter: counter, prettyErrors: false });
  const rel = file.startsWith(ROOT) ? relative(ROOT, file) : file;
  if (doc.errors.length)
    throw new InputError(`${rel}: not valid YAML`, {
      details: doc.errors.map((e) => `${rel}:${counter.linePos(e.pos[0]).line}: ${e.message.split('\n')[0]}`),
    });
  const entry = doc.toJS({ maxAliasCount: 100 }) ?? {};
  const problems = schemaProblems('controller', entry);
  if (problems.length)
    throw new InputError(`${rel}: ${problems.length} problem${problems.length > 1 ? 's' : ''} in the catalog entry`, {
      details: problems.map(
        (p) => `${rel}:${lineOf(doc, counter, p.path)}: ${p.path.join('.') || '(top level)'}: ${p.message}`,
      ),
    });
  return entry;
}

// The line of a key path in a parsed document (the deepest part of it that is there).
function lineOf(doc, counter, path) {
  let node = doc.contents;
  let at = node;
  for (const step of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => String(p.key?.value ?? p.key) === String(step));
      if (!pair) break;
      [at, node] = [pair.key, pair.value];
    } else if (isSeq(node) && node.items[Number(step)]) at = node = node.items[Number(step)];
    else break;
  }
  return counter.linePos(at?.range?.[0] ?? 0).line;
}

// bench.yaml may name the chart itself; the catalog's archive checksum still applies when
// it names the same chart and version (one pin), and never to another version.
function pinnedChart(own, catalog) {
  if (!own) return catalog;
  const same = catalog && own.name === catalog.name && own.version === catalog.version;
  return { ...own, sha256: own.sha256 ?? (same ? catalog.sha256 : undefined) };
}

// A Gateway-only controller (controller.yaml `routing: gateway`) routes through Gateway
// API whatever bench.yaml leaves out; asking it for an Ingress is a config error.
function routingOf(name, controller, entry) {
  const own = entry.routing ?? 'ingress';
  const asked = controller.routing ?? own;
  if (own === 'gateway' && asked !== 'gateway')
    throw Object.assign(
      new InputError(
        `controller "${name}": routing: ${asked}, but ${controller.catalog ?? name} routes only through Gateway API (set routing: gateway, or leave it out)`,
      ),
      { field: 'routing' },
    );
  return asked;
}

// routing: gateway — the HTTPRoute attaches to the Gateway the controller's chart creates
// when the catalog's gateway values are laid over its own, or that its data plane chart
// creates (controller.yaml `gateway:`).
// `crds: chart` — the chart installs the Gateway API CRDs of its own release.
function gatewayOf(name, controller, entry, dir) {
  const g = entry.gateway;
  if (entry.gatewayUnsupported)
    throw Object.assign(
      new InputError(`controller "${name}": routing: gateway is not possible here: ${entry.gatewayUnsupported}`),
      { field: 'routing' },
    );
  if (!g?.name || !(g.values || entry.dataplane))
    throw new InputError(
      `controller "${name}": routing: gateway, but the catalog entry ${controller.catalog ?? name} has no gateway section (the Gateway's name, and a values file or a data plane chart that creates it) in its controller.yaml`,
    );
  return { name: g.name, values: g.values ? join(dir, g.values) : null, crdsFromChart: g.crds === 'chart' };
}

/** Problems of one kube matrix against the catalog, as {path, message} (config/validate.js). */
export function catalogProblems(cfg, mname, m, add) {
  for (const c of m.controllers) {
    const controller = Object.hasOwn(cfg.controllers, c) ? cfg.controllers[c] : null;
    // A values file outside the bench config's folder is reported where it is resolved.
    if (controller?.type !== 'helm' || (controller.values && !controller.valuesFile)) continue;
    let entry;
    try {
      entry = catalogEntry(c, controller);
    } catch (err) {
      if (!(err instanceof InputError)) throw err;
      const at = ['controllers', c, ...(err.field ? [err.field] : [])];
      // A catalog entry's own problems, each with its file and line.
      if (err.details.length) for (const d of err.details) add(at, `its catalog entry: ${d}`);
      else add(at, err.message.replace(`controller "${c}": `, ''));
      continue;
    }
    m.tunings.forEach((t, i) => {
      if (!Object.hasOwn(cfg.tunings, t)) return; // reported as an unknown tuning
      try {
        entry.overlay(t);
      } catch (err) {
        if (err instanceof InputError) add(['matrices', mname, 'tunings', i], err.message);
        else throw err;
      }
    });
  }
}
