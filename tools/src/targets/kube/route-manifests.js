// The routes tailgate makes on a cluster (route faults, carried routes): an Ingress of a
// side's class, or an HTTPRoute on its Gateway, to the backend's Service, labelled so that
// one delete removes them all after a measurement.
import { NAMESPACE } from './context.js';
import { BACKEND_RELEASE } from './steps/backend.js';

export const ROUTE_LABEL = 'tailgate.dev/route-fault';

/** A route for `host` on side `s` (its class or its Gateway), labelled for the cleanup. */
export function routeManifest(s, name, host, purpose = 'route-fault') {
  const meta = { name, namespace: NAMESPACE, labels: { [ROUTE_LABEL]: purpose } };
  return s.gateway ? httpRoute(meta, host, s.gateway) : ingress(meta, host, s.ingressClass);
}

function ingress(metadata, host, ingressClass) {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata,
    spec: {
      ingressClassName: ingressClass,
      rules: [
        {
          host,
          http: {
            paths: [
              {
                path: '/',
                pathType: 'Prefix',
                backend: { service: { name: BACKEND_RELEASE, port: { name: 'http' } } },
              },
            ],
          },
        },
      ],
    },
  };
}

function httpRoute(metadata, host, gateway) {
  return {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'HTTPRoute',
    metadata,
    spec: {
      parentRefs: [{ name: gateway.name, namespace: gateway.namespace }],
      hostnames: [host],
      rules: [{ backendRefs: [{ name: BACKEND_RELEASE, port: 80 }] }],
    },
  };
}
