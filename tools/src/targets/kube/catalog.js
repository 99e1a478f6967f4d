// charts/controllers/<name>/: the upstream chart, base values and tuning overlays.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ROOT } from '../../exec/tools.js';
import { InputError } from '../../errors.js';

export const CATALOG_DIR = join(ROOT, 'charts', 'controllers');

export function catalogEntry(name, controller) {
  const dir = join(CATALOG_DIR, controller.catalog ?? name);
  const file = join(dir, 'controller.yaml');
  const entry = existsSync(file) ? parse(readFileSync(file, 'utf8')) : {};
  const values =
    controller.valuesFile ?? (controller.values ? join(ROOT, controller.values) : join(dir, 'values.yaml'));
  if (!existsSync(values)) throw new InputError(`controller "${name}": values file ${values} not found`);
  return {
    name,
    chart: controller.chart ?? entry.chart,
    ingressClass: controller.ingressClass ?? entry.ingressClass ?? name,
    podSelector: entry.podSelector ?? `app.kubernetes.io/name=${name}`,
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
    // Machines without a chart repository install a local stand-in chart that takes
    // the same value keys, with images built locally.
    offlineChart: existsSync(join(dir, 'offline-chart', 'Chart.yaml')) ? join(dir, 'offline-chart') : null,
    offlineImages: entry.offlineImages ?? [],
    // The upstream chart as a Go module (served by the Go module proxy): offline
    // machines install the real chart from the module cache instead of a stand-in.
    upstream: entry.upstream ?? null,
    effectiveConfig: entry.effectiveConfig ?? null,
    routing: controller.routing ?? 'ingress',
    gateway: gatewayOf(name, controller, entry, dir),
  };
}

// routing: gateway — the HTTPRoute attaches to the Gateway the controller's chart creates
// when the catalog's gateway values are laid over its own (controller.yaml `gateway:`).
function gatewayOf(name, controller, entry, dir) {
  if ((controller.routing ?? 'ingress') !== 'gateway') return null;
  const g = entry.gateway;
  if (!g?.values || !g?.name)
    throw new InputError(
      `controller "${name}": routing: gateway, but the catalog entry ${controller.catalog ?? name} has no gateway section (values file and Gateway name) in its controller.yaml`,
    );
  return { name: g.name, values: join(dir, g.values), listenerPort: g.listenerPort ?? null };
}
