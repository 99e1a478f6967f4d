// The route faults' "routes" on a cluster: a new route per side (an Ingress of the side's
// class, or an HTTPRoute on the side's Gateway) in front of the same backend, applied
// together, then probed through each side's own data plane until it answers. Events:
// route-applied (the API server accepted it), route-ready (its first 200:
// propagationMs, and the answers on the way that were neither 404 nor 200), or
// route-not-ready (timeout, or the load ended first). Every route this made is deleted
// after the measurement.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InfraError } from '../../errors.js';
import { run } from '../../exec/run.js';
import { NAMESPACE } from './context.js';
import { httpStatus } from './builtins.js';

const LABEL = 'tailgate.dev/route-fault';
// Probing every 20 ms resolves propagation to the tens of milliseconds the fastest
// implementations show, at ≤ 50 requests/s per pending route.
const PROBE_EVERY_MS = 20;

/**
 * sides: [{side: 'base'|'head', url, ingressClass} | {side, url, gateway: {name, namespace}}]
 * — how each side routes and where its data plane answers.
 */
export class KubeRoutes {
  constructor({ kubectlFlags, sides, events, dir }) {
    this.flags = kubectlFlags;
    this.sides = sides;
    this.events = events;
    this.dir = dir;
    this.kinds = new Set();
  }

  async add(index, { timeoutMs, signal }) {
    const host = `r${index}.routes.bench.local`;
    await Promise.all(this.sides.map((s) => this.addOne(s, index, host, { timeoutMs, signal })));
  }

  async addOne(s, index, host, { timeoutMs, signal }) {
    const name = `route-add-${index}${s.side === 'head' ? '-b' : ''}`;
    const manifest = s.gateway ? httpRoute(name, host, s.gateway) : ingress(name, host, s.ingressClass);
    this.kinds.add(manifest.kind.toLowerCase());
    const file = join(this.dir, `${name}.json`);
    writeFileSync(file, JSON.stringify(manifest));
    const r = await run(['kubectl', ...this.flags, 'apply', '-f', file], { timeoutMs: 30_000 });
    if (r.code !== 0) throw new InfraError(`kubectl apply ${name}: ${r.output.trim().split('\n').at(-1)}`);
    const accepted = Date.now();
    this.events.emit('route-applied', { route: index, side: s.side });
    const errors = {};
    const errorCount = () => Object.values(errors).reduce((a, b) => a + b, 0);
    let probes = 0;
    while (!signal.aborted && Date.now() - accepted < timeoutMs) {
      probes++;
      let status;
      try {
        // The backend answers /healthz (and the load's paths), and 404 for anything else:
        // only a path it serves tells a routed request from a data plane's 404.
        status = await httpStatus(`${s.url}/healthz`, host);
      } catch {
        status = 'connection';
      }
      if (status === 200) {
        this.events.emit('route-ready', {
          route: index,
          side: s.side,
          propagationMs: Date.now() - accepted,
          probes,
          errors: errorCount(),
          ...(Object.keys(errors).length ? { errorClasses: JSON.stringify(errors).slice(0, 300) } : {}),
        });
        return;
      }
      if (status !== 404) errors[String(status)] = (errors[String(status)] ?? 0) + 1;
      await new Promise((res) => setTimeout(res, PROBE_EVERY_MS));
    }
    this.events.emit('route-not-ready', {
      route: index,
      side: s.side,
      reason: signal.aborted ? 'the load ended first' : `no 200 within ${timeoutMs} ms`,
      afterMs: Date.now() - accepted,
      errors: errorCount(),
    });
  }

  /** Deletes every route a fault of this measurement added (the next one starts clean). */
  async cleanup() {
    for (const kind of this.kinds) {
      const r = await run(
        ['kubectl', ...this.flags, '-n', NAMESPACE, 'delete', kind, '-l', LABEL, '--ignore-not-found', '--wait=false'],
        { timeoutMs: 60_000 },
      );
      if (r.code !== 0) throw new InfraError(`could not delete the routes a route fault added: ${r.output.trim()}`);
    }
  }
}

const meta = (name) => ({ name, namespace: NAMESPACE, labels: { [LABEL]: 'route-add' } });

function ingress(name, host, ingressClass) {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: meta(name),
    spec: {
      ingressClassName: ingressClass,
      rules: [
        {
          host,
          http: {
            paths: [
              { path: '/', pathType: 'Prefix', backend: { service: { name: 'backend', port: { name: 'http' } } } },
            ],
          },
        },
      ],
    },
  };
}

function httpRoute(name, host, gateway) {
  return {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'HTTPRoute',
    metadata: meta(name),
    spec: {
      parentRefs: [{ name: gateway.name, namespace: gateway.namespace }],
      hostnames: [host],
      rules: [{ backendRefs: [{ name: 'backend', port: 80 }] }],
    },
  };
}
