// The backend every controller routes to: its chart, its image offline, the routing a
// controller's catalog asks for, and a duet head's canary ports.
import { join } from 'node:path';
import { scenarioMs, scenarioShares } from '../../../config/normalise.js';
import { ROOT } from '../../../exec/tools.js';
import { faultModule } from '../../../faults/schedule.js';
import { INGRESS_NAMESPACE, NAMESPACE, rel } from '../context.js';

export const BACKEND_CHART = rel(join(ROOT, 'charts', 'backend'));
// The release, its Service and the base's route share this name; a duet head's route is
// named after its IngressClass or Gateway (charts/backend/templates).
export const BACKEND_RELEASE = 'backend';
export const loadedRoute = (side, classOrGateway) =>
  side === 'base' ? BACKEND_RELEASE : `${BACKEND_RELEASE}-${classOrGateway}`;
export function backendStep(u) {
  const { cat, head } = u;
  return {
    timeoutMs: 360_000,
    title: `install the backend chart${cat.gateway || head?.gateway ? ` (exposed through ${cat.gateway && (!head || head.gateway) ? 'an HTTPRoute' : 'an Ingress and an HTTPRoute'})` : ''}`,
    argv: u.helm(
      'upgrade',
      '--install',
      BACKEND_RELEASE,
      BACKEND_CHART,
      '-n',
      NAMESPACE,
      '--create-namespace',
      '--set',
      `replicas=${u.cells[0].scenario.replicas}`,
      ...headCanary(u.cells),
      ...altService(u.cells),
      ...backendRouting(cat, head),
      ...offlineBackend(u.ctx),
      '--wait',
      '--timeout',
      '5m',
    ),
  };
}

// The second Service (backend-alt), only where a cell's fault switches routes to it
// (route-change: its module's usesBackendAlt).
export function altService(cells) {
  const used = cells.some((c) => (c.scenario.faults ?? []).some((f) => faultModule(f.type).usesBackendAlt));
  return used ? ['--set', 'altService.enabled=true'] : [];
}

// tools/scripts/build-backend-image.sh: the host's Debian nginx, Lua module included.
export const OFFLINE_BACKEND_IMAGE = 'localhost/tailgate-backend-nginx:1.22.1';
// Each side's own route to the same pods: an Ingress of its class, or an HTTPRoute on its
// Gateway. The base's is the chart's main object (named like the release), the head's an
// extra one (named after its class or Gateway: loadedRoute) that takes a canary's port;
// where the sides route differently (a migration from Ingress to Gateway API, or back),
// the main object of the kind the base does not use is left out.
export function backendRouting(cat, head = null) {
  const [baseGw, headGw] = [Boolean(cat.gateway), Boolean(head?.gateway)];
  const ingress = !baseGw || (head && !headGw);
  const out = ingress
    ? [
        '--set',
        `ingress.className=${baseGw ? '' : cat.ingressClass}`,
        ...(head && !headGw ? ['--set', `ingress.extraClassNames={${head.ingressClass}}`] : []),
      ]
    : ['--set', 'ingress.enabled=false'];
  if (!baseGw && !headGw) return out;
  return [
    ...out,
    ...(headGw
      ? [
          '--set',
          `httpRoute.extraGateways[0].name=${head.gateway.name}`,
          '--set',
          `httpRoute.extraGateways[0].namespace=${head.gateway.namespace}`,
        ]
      : []),
    '--set',
    'httpRoute.enabled=true',
    '--set',
    `httpRoute.gatewayName=${baseGw ? cat.gateway.name : ''}`,
    '--set',
    `httpRoute.gatewayNamespace=${INGRESS_NAMESPACE}`,
  ];
}

// Duet canaries (scenario headDelay [× headDelayShare], headErrors, headAltErrors, backendErrors): the
// head's Ingress reaches the pods on a port that sleeps first or fails a share with 503, over the
// backend's own error share on both routes (the backend chart's extraClassDelayMs,
// extraClassErrorPercent, errorPercent; Lua, as in the offline image).
export function headCanary(cells) {
  const duets = cells.filter((c) => c.concurrent);
  const most = (of) => Math.max(0, ...duets.map((c) => of(c.scenario)));
  const percent = (key) => Number((100 * most((s) => scenarioShares(s)[key])).toPrecision(6));
  const values = [
    ['ingress.extraClassDelayMs', most((s) => scenarioMs(s).headDelay)],
    ['ingress.extraClassDelayPercent', percent('headDelayShare')],
    ['ingress.extraClassErrorPercent', percent('headErrors')],
    ['ingress.extraClassAltErrorPercent', percent('headAltErrors')],
    ['errorPercent', percent('backendErrors')],
  ].filter(([, v]) => v > 0);
  if (!values.length) return [];
  return [
    ...values.flatMap(([k, v]) => ['--set', `${k}=${v}`]),
    '--set',
    'lua.enabled=true',
    '--set',
    'lua.loadModules={/usr/lib/nginx/modules/ndk_http_module.so,/usr/lib/nginx/modules/ngx_http_lua_module.so}',
  ];
}

export function offlineBackend(ctx) {
  if (!ctx.offline) return [];
  const [repository, tag] = OFFLINE_BACKEND_IMAGE.split(/:(?=[^:]+$)/);
  return [
    '--set',
    `image.repository=${repository}`,
    '--set',
    `image.tag=${tag}`,
    '--set',
    'image.pullPolicy=Never',
    '--set',
    'image.command={/usr/sbin/nginx,-g,daemon off;,-c,/etc/tailgate/nginx.conf}',
  ];
}
