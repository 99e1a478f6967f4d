// Gateway API: the CRDs at the pinned version, and load only on a programmed Gateway
// and an accepted route.
import { PINS } from '../../../version.js';
import { INGRESS_NAMESPACE, NAMESPACE } from '../context.js';
import { upstreamChartDir } from './module-path.js';
import { BACKEND_RELEASE } from './backend.js';

// Gateway API CRDs at the pinned version: the official release manifest where it can be
// downloaded, the same files from the Go module proxy's copy of the module offline.
export function gatewayCrdSteps(ctx, kubectl) {
  const version = PINS['gateway-api'];
  const source = ctx.offline
    ? upstreamChartDir({ goModule: 'sigs.k8s.io/gateway-api', version, path: 'config/crd/standard' }, ctx.goModCache)
    : `https://github.com/kubernetes-sigs/gateway-api/releases/download/${version}/standard-install.yaml`;
  return [
    ...(ctx.offline
      ? [
          {
            timeoutMs: 300_000,
            title: `fetch Gateway API ${version} through the Go module proxy`,
            argv: ['go', 'mod', 'download', '-json', `sigs.k8s.io/gateway-api@${version}`],
            env: { GOFLAGS: '-mod=mod' },
          },
        ]
      : []),
    {
      title: `install the Gateway API ${version} standard CRDs`,
      argv: kubectl('apply', '--server-side', '-f', source),
    },
    {
      title: 'wait until the Gateway API CRDs are established',
      argv: kubectl(
        'wait',
        '--for=condition=Established',
        'crd/gateways.gateway.networking.k8s.io',
        'crd/httproutes.gateway.networking.k8s.io',
        '--timeout=60s',
      ),
    },
  ];
}

// Load only starts on a programmed Gateway and an accepted route: a route the Gateway
// refuses fails here with the condition's own message, never as a run of 404s. `gateway`:
// which Gateway and route (a duet's head has its own); the catalog's by default.
export function gatewayReadySteps(cat, kubectl, { programmed = true, gateway = null } = {}) {
  const gw = gateway ?? { name: cat.gateway.name, namespace: INGRESS_NAMESPACE, route: BACKEND_RELEASE };
  return [
    ...(programmed ? [programmedStep(cat, kubectl, [], gw)] : []),
    {
      kind: 'preflight',
      timeoutMs: 90_000,
      title: gateway
        ? `wait until the HTTPRoute ${gw.route} is Accepted by Gateway ${gw.name} with its references resolved`
        : 'wait until the HTTPRoute is Accepted with its references resolved',
      argv: ['tailgate-internal', 'wait-route', `${NAMESPACE}/${gw.route}`, '60s'],
      builtin: 'waitRoute',
      getArgv: kubectl('-n', NAMESPACE, 'get', 'httproute', gw.route, '-o', 'json'),
    },
  ];
}

export const CONDITIONS = '{range .status.conditions[*]}{.type}={.status} {.reason}: {.message}{"\\n"}{end}';
export function programmedStep(cat, kubectl, diagnose = [], which = null) {
  const { name, namespace } = which ?? { name: cat.gateway.name, namespace: INGRESS_NAMESPACE };
  const gw = ['-n', namespace, `gateway/${name}`];
  return {
    timeoutMs: 150_000,
    title: `wait until Gateway ${name} is Programmed`,
    argv: kubectl('wait', '--for=condition=Programmed', ...gw, '--timeout=120s'),
    diagnose: [kubectl('get', ...gw, '-o', `jsonpath=${CONDITIONS}`), ...diagnose],
  };
}
