// Everything a kube plan needs to know about where it runs: kind (a cluster per
// controller, created and deleted by tailgate) or an existing cluster (kubeconfig).
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse } from 'yaml';
import { ROOT } from '../../exec/tools.js';
import { goModCache as goModCacheDir } from './go-env.js';

export const NAMESPACE = 'tailgate';
export const INGRESS_NAMESPACE = 'tailgate-ingress';
// clusters/*.yaml map the ingress node's port 80 to this host port; a run moves it to
// the first free one from here (host-ports.js).
export const HOST_PORT = 18080;
// A duet's head: its own namespace, its data plane on the ingress node's port 81,
// mapped to the next free host port.
export const INGRESS_NAMESPACE_B = 'tailgate-ingress-b';
export const DUET_NODE_PORT = 81;

export function kubeContext({
  target,
  runId,
  runDir,
  kubeconfig,
  targetUrl,
  cluster = 'single',
  env = process.env,
  hostPorts = null,
  // Resolved here, once per process, for every context (dry run and run alike); the step
  // builders only read it.
  goModCache = goModCacheDir(),
}) {
  // kind's host ports, in the order the plan hands them out (host-ports.js); a plan
  // shown without running gets the default ones.
  const ports = hostPorts ?? Array.from({ length: 16 }, (_, i) => HOST_PORT + i);
  const images = parse(readFileSync(join(ROOT, 'clusters', 'images.yaml'), 'utf8'));
  return {
    target,
    runId,
    kubeconfig: kubeconfig ?? null,
    topology: cluster,
    clusterConfig: rel(join(ROOT, 'clusters', `${cluster}.yaml`)),
    // Files a run writes for its own steps (interleaved kind configs); shown relative.
    runDirShown: runDir ? rel(runDir) : 'results/<run>',
    nodeImage: env.TAILGATE_KIND_NODE_IMAGE || images.default,
    offline: env.TAILGATE_OFFLINE === '1',
    // Where offline runs find the controllers' chart archives (chart-archive.js).
    env,
    // kind maps the ingress node's port 80 to this port; an existing cluster says
    // where its ingress answers (a load balancer, a NodePort, a host port).
    url: targetUrl ?? env.TAILGATE_TARGET_URL ?? (target === 'kind' ? `http://127.0.0.1:${ports[0]}` : null),
    hostPorts: ports,
    // Where upstream charts and the Gateway API CRDs are offline (go-env.js; the driver's).
    goModCache,
    clusterName: (controller) => `tailgate-${runId}-${controller}`.slice(0, 40).replace(/-+$/, ''),
  };
}

/** kubectl/helm flags that pin the cluster for one controller's cells. */
export function targetFlags(ctx, controller) {
  if (ctx.target === 'kind') {
    const c = `kind-${ctx.clusterName(controller)}`;
    return { kubectl: ['--context', c], helm: ['--kube-context', c] };
  }
  return ctx.kubeconfig
    ? { kubectl: ['--kubeconfig', ctx.kubeconfig], helm: ['--kubeconfig', ctx.kubeconfig] }
    : { kubectl: [], helm: [] };
}

export function rel(p) {
  return relative(process.cwd(), p) || '.';
}
