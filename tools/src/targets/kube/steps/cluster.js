// A controller's cluster (kind) or namespaces (an existing cluster): set-up, what an
// offline cluster needs loaded, teardown.
import { InputError } from '../../../errors.js';
import { engineShown } from '../../../engines/index.js';
import { verifiedArchive } from '../../../registry/chart-archive.js';
import { DUET_NODE_PORT, INGRESS_NAMESPACE, INGRESS_NAMESPACE_B, NAMESPACE, rel } from '../context.js';
import { BACKEND_RELEASE, backendStep, OFFLINE_BACKEND_IMAGE } from './backend.js';
import { gatewayCrdSteps } from './gateway.js';

// Before any tuning: the cluster (kind) or the namespaces (cluster), what an offline
// cluster needs, the Gateway API CRDs and the backend.
export function setupSteps(u) {
  const { ctx, controller, cat, add } = u;
  if (ctx.target === 'kind' && u.ownConfig)
    add({
      title: `write the kind config for ${controller}: ${ctx.clusterConfig}, ingress on host port ${u.hostPort}${u.duet ? `, the head's on ${u.hostPortB}` : ''}`,
      argv: [
        'tailgate-internal',
        'write-kind-config',
        ctx.clusterConfig,
        String(u.hostPort),
        u.clusterConfig,
        ...(u.duet ? [`${DUET_NODE_PORT}:${u.hostPortB}`] : []),
      ],
      builtin: 'writeKindConfig',
      from: ctx.clusterConfig,
      hostPort: u.hostPort,
      to: u.clusterConfig,
      extraPort: u.duet ? { containerPort: DUET_NODE_PORT, hostPort: u.hostPortB } : null,
    });
  // Refusals first: nothing of a cluster is made for a run that cannot install.
  if (ctx.offline) offlineCharts(u);
  if (ctx.target === 'kind') {
    const cluster = ctx.clusterName(controller);
    add({
      kind: 'create',
      cluster,
      timeoutMs: 600_000,
      retries: 2,
      title: `create kind cluster for ${controller} (${ctx.topology})`,
      // A failed attempt can leave a half-made cluster holding the host ports: removed
      // before the next one. When all fail, what holds ports and disk says why.
      beforeRetry: ['kind', 'delete', 'cluster', '--name', cluster],
      diagnose: [
        ['docker', 'ps', '-a', '--format', '{{.Names}}\t{{.Status}}\t{{.Ports}}'],
        ['df', '-h', '/', '/tmp'],
        // A process of the machine's own on a host port: docker cannot publish it.
        ['ss', '-Htlnp', `( sport = :${u.hostPort}${u.duet ? ` or sport = :${u.hostPortB}` : ''} )`],
      ],
      argv: [
        'kind',
        'create',
        'cluster',
        '--name',
        cluster,
        '--config',
        u.clusterConfig,
        '--image',
        ctx.nodeImage,
        '--wait',
        '5m',
      ],
    });
    if (ctx.offline) offlineLoadSteps(u);
  } else {
    add({
      title: 'create namespaces',
      argv: u.kubectl('create', 'namespace', NAMESPACE),
      okIfOutput: /AlreadyExists/,
    });
  }
  // Either side's HTTPRoute needs the CRDs (a migration duet may route only its head so).
  const routesGateway = Boolean(cat.gateway || u.head?.cat.gateway);
  if (routesGateway && !cat.gateway?.crdsFromChart) for (const step of gatewayCrdSteps(ctx, u.kubectl)) add(step);
  // The backend's HTTPRoute needs the Gateway API CRDs: where the controller's chart
  // brings them, the backend follows the first controller install.
  u.backendStep = backendStep(u);
  if (!cat.gateway?.crdsFromChart) {
    add(u.backendStep);
    u.backendStep = null;
  }
}

// Offline, every side's chart is checked before a cluster starts: a controller that
// cannot run here says why (controller.yaml `offline:`), and an archive that is missing
// or not the pinned one is one line naming it (chart-archive.js).
export function offlineCharts(u) {
  for (const { controller, cat } of [u, ...(u.head ? [u.head] : [])]) {
    if (cat.offlineRefusal)
      throw new InputError(`controller "${controller}" cannot run without registries: ${cat.offlineRefusal}`);
    if (!cat.upstream) verifiedArchive(cat.chart, { env: u.ctx.env, where: `${rel(cat.pinFile)} chart.sha256` });
  }
}

export function offlineLoadSteps(u) {
  const { cat, head, cells, ctx, controller } = u;
  if (cat.upstream)
    u.add({
      timeoutMs: 300_000,
      title: `fetch the ${controller} chart ${cat.upstream.version} through the Go module proxy (it is part of that Go module)`,
      argv: ['go', 'mod', 'download', '-json', `${cat.upstream.goModule}@${cat.upstream.version}`],
      env: { GOFLAGS: '-mod=mod' },
    });
  // The in-cluster load image of each engine the cells run on (engines/<name>/job.js).
  const loadImages = [
    ...new Set(cells.filter((c) => c.scenario.loadFrom === 'cluster').map((c) => engineShown(c).job.image)),
  ];
  u.add({
    timeoutMs: 300_000,
    title: 'load locally built images into the cluster',
    argv: [
      'kind',
      'load',
      'docker-image',
      OFFLINE_BACKEND_IMAGE,
      ...new Set([...cat.offlineImages, ...(head?.cat.offlineImages ?? [])]),
      ...loadImages,
      '--name',
      ctx.clusterName(controller),
    ],
  });
}

export function teardownSteps(u) {
  const { ctx, controller, cat, head, helm } = u;
  const add = (s) => u.add({ kind: 'teardown', ...s });
  if (ctx.target === 'kind') {
    add({
      title: `delete kind cluster for ${controller}`,
      argv: ['kind', 'delete', 'cluster', '--name', ctx.clusterName(controller)],
    });
    return;
  }
  // The data plane first, while its controller still runs to remove the proxies it made
  // for the Gateway.
  if (cat.dataplane)
    add({
      title: `uninstall the ${controller} data plane`,
      argv: helm('uninstall', `${controller}-dataplane`, '-n', INGRESS_NAMESPACE, '--ignore-not-found'),
    });
  add({
    title: `uninstall ${controller}`,
    argv: helm('uninstall', controller, '-n', INGRESS_NAMESPACE, '--ignore-not-found'),
  });
  if (head)
    add({
      title: `uninstall the head ${head.release}`,
      argv: helm('uninstall', head.release, '-n', INGRESS_NAMESPACE_B, '--ignore-not-found'),
    });
  add({
    title: 'uninstall the backend',
    argv: helm('uninstall', BACKEND_RELEASE, '-n', NAMESPACE, '--ignore-not-found'),
  });
}
