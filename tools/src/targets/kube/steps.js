// plan -> steps. Each step is an argv (pasteable) with a timeout and a kind that
// the executor treats differently: "create" may be retried (bounded), "measure"
// never is, "teardown" always runs. Pure: `tailgate run --dry-run` prints exactly
// this list, and golden tests pin it.
import { join } from 'node:path';
import { runSync } from '../../exec/run.js';
import { parseDuration, parsePercent } from '../../config/units.js';
import { ROOT } from '../../exec/tools.js';
import { InputError } from '../../errors.js';
import { cellLoad, k6Args, k6Budget, k6Env } from '../../run/k6.js';
import { faultModule } from '../../faults/schedule.js';
import { K6_IMAGE, jobManifestFor } from './k6-job.js';
import { catalogEntry } from './catalog.js';
import { archivePath, verifiedArchive } from './chart-archive.js';
import { unsafeSysctls } from './sysctls.js';
import { PINS } from '../../version.js';
import {
  DUET_NODE_PORT,
  HOST_PORT,
  INGRESS_NAMESPACE,
  INGRESS_NAMESPACE_B,
  NAMESPACE,
  rel,
  targetFlags,
} from './context.js';

const BACKEND_CHART = rel(join(ROOT, 'charts', 'backend'));

// One controller (a CI job per cell) has nothing to interleave with: the plain layout.
const interleaved = (plan, byController) => Boolean(plan.matrix.interleave) && byController.size > 1;

/** Host ports a kind run of the plan publishes at once: one per cluster, two for a duet's. */
export function hostPortCount(plan) {
  const byController = groupBy(plan.cells, (c) => c.controllerName);
  const clusters = interleaved(plan, byController) ? byController.size : 1;
  return clusters * (plan.cells.some((c) => c.concurrent) ? 2 : 1);
}

export function planSteps(plan, ctx) {
  const steps = [];
  const byController = groupBy(plan.cells, (c) => c.controllerName);
  if (ctx.target === 'kind') {
    steps.push({
      timeoutMs: 120_000,
      controller: null,
      kind: 'cleanup',
      title: 'remove kind clusters left by earlier tailgate runs',
      argv: ['tailgate-internal', 'delete-stale-kind-clusters', 'tailgate-'],
      builtin: 'deleteStaleClusters',
    });
  }
  const interleave = interleaved(plan, byController);
  const units = [...byController].map(([controller, cells], index) =>
    controllerSteps({
      ctx,
      controller,
      cells,
      index,
      interleave,
      duet: Boolean(cells[0].concurrent),
      push: (s) => steps.push(s),
    }),
  );
  if (!interleave) {
    for (const u of units) {
      u.setup();
      for (const [tuning, tcells] of groupBy(u.cells, (c) => c.tuningName)) {
        u.install(tuning);
        for (const cell of tcells) u.cell(cell);
      }
      u.teardown();
    }
    return steps;
  }
  // interleave (kind): every cluster up at once; each tuning installed on every
  // controller, then its cells in the plan's order (repetition, scenario, controller).
  for (const u of units) u.setup();
  const unitOf = new Map(units.map((u) => [u.controller, u]));
  for (const [tuning, tcells] of groupBy(plan.cells, (c) => c.tuningName)) {
    for (const u of units) if (u.cells.some((c) => c.tuningName === tuning)) u.install(tuning);
    for (const cell of tcells) unitOf.get(cell.controllerName).cell(cell);
  }
  for (const u of units) u.teardown();
  return steps;
}

// The steps of one controller — its cluster or release, each tuning's install, each
// cell, its teardown — for planSteps to lay out one controller after another, or
// interleaved. With interleave each kind cluster maps its ingress to its own host port.
// A duet (cells with `concurrent`): the head's controller is a second release in the same
// cluster (its own namespace, IngressClass and host port), in front of the same backend
// pods, installed by the same release unit as the base.
function controllerSteps({ ctx, controller, cells, index, interleave, duet, push }) {
  const cat = catalogEntry(controller, cells[0].controller);
  const f = targetFlags(ctx, controller);
  // Host ports in turn: each interleaved cluster its own, a duet's head the next one.
  const slot = interleave ? index * (duet ? 2 : 1) : 0;
  const hostPort = ctx.hostPorts[slot];
  const hostPortB = duet ? ctx.hostPorts[slot + 1] : null;
  // The topology file maps the ingress to HOST_PORT: any other port is a config of the run's.
  const ownConfig = interleave || duet || hostPort !== HOST_PORT;
  const u = {
    ctx,
    controller,
    cells,
    cat,
    duet,
    interleave,
    hostPort,
    hostPortB,
    ownConfig,
    add: (s) => push({ timeoutMs: 120_000, kind: 'setup', controller, ...s }),
    kubectl: (...a) => ['kubectl', ...f.kubectl, ...a],
    helm: (...a) => ['helm', ...a, ...f.helm],
    url: interleave ? `http://127.0.0.1:${hostPort}` : ctx.url,
    urlB: duet ? `http://127.0.0.1:${hostPortB}` : null,
    clusterConfig: ownConfig ? join(ctx.runDirShown, `kind-${controller}.yaml`) : ctx.clusterConfig,
    head: duet ? duetHead(cells[0].concurrent, cat) : null,
    headTuning: null, // the tuning the head's release has now
    backendStep: null, // the backend's install, where it must follow the controller's
  };
  u.release = (side, tuning, afterInstall) =>
    releaseSteps({ ctx, side, tuning, kubectl: u.kubectl, helm: u.helm, add: u.add, afterInstall });
  return {
    controller,
    cells,
    setup: () => setupSteps(u),
    install: (tuning) => installSteps(u, tuning),
    cell: (cell) => cellSteps(u, cell),
    teardown: () => teardownSteps(u),
  };
}

// Before any tuning: the cluster (kind) or the namespaces (cluster), what an offline
// cluster needs, the Gateway API CRDs and the backend.
function setupSteps(u) {
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
  if (cat.gateway && !cat.gateway.crdsFromChart) for (const step of gatewayCrdSteps(ctx, u.kubectl)) add(step);
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
function offlineCharts(u) {
  for (const { controller, cat } of [u, ...(u.head ? [u.head] : [])]) {
    if (cat.offlineRefusal)
      throw new InputError(`controller "${controller}" cannot run without registries: ${cat.offlineRefusal}`);
    if (!cat.upstream) verifiedArchive(cat.chart, { env: u.ctx.env, where: `${rel(cat.pinFile)} chart.sha256` });
  }
}

function offlineLoadSteps(u) {
  const { cat, head, cells, ctx, controller } = u;
  if (cat.upstream)
    u.add({
      timeoutMs: 300_000,
      title: `fetch the ${controller} chart ${cat.upstream.version} through the Go module proxy (it is part of that Go module)`,
      argv: ['go', 'mod', 'download', '-json', `${cat.upstream.goModule}@${cat.upstream.version}`],
      env: { GOFLAGS: '-mod=mod' },
    });
  const k6Image = cells.some((c) => c.scenario.loadFrom === 'cluster') ? [K6_IMAGE] : [];
  u.add({
    timeoutMs: 300_000,
    title: 'load locally built images into the cluster',
    argv: [
      'kind',
      'load',
      'docker-image',
      OFFLINE_BACKEND_IMAGE,
      ...new Set([...cat.offlineImages, ...(head?.cat.offlineImages ?? [])]),
      ...k6Image,
      '--name',
      ctx.clusterName(controller),
    ],
  });
}

function backendStep(u) {
  const { cat, head } = u;
  return {
    timeoutMs: 360_000,
    title: `install the backend chart${cat.gateway ? ' (exposed through an HTTPRoute)' : ''}`,
    argv: u.helm(
      'upgrade',
      '--install',
      'backend',
      BACKEND_CHART,
      '-n',
      NAMESPACE,
      '--create-namespace',
      '--set',
      `replicas=${u.cells[0].scenario.replicas}`,
      '--set',
      `ingress.className=${cat.ingressClass}`,
      ...(head ? ['--set', `ingress.extraClassNames={${head.ingressClass}}`] : []),
      ...headCanary(u.cells),
      ...backendRouting(cat),
      ...offlineBackend(u.ctx),
      '--wait',
      '--timeout',
      '5m',
    ),
  };
}

function installSteps(u, tuning) {
  const { controller, cat, head } = u;
  // The backend right after the first install where that install brings the CRDs its
  // route needs.
  u.release({ controller, cat, namespace: INGRESS_NAMESPACE, extra: head ? [cat.duet.a] : [] }, tuning, () => {
    if (u.backendStep) u.add(u.backendStep);
    u.backendStep = null;
  });
  // The head's tuning for these cells: fixed (--ab-head), or the same name as the
  // PR's head defines it (a PR duet).
  const wanted = u.cells.find((c) => c.tuningName === tuning)?.concurrent?.tuningName;
  if (head && wanted !== u.headTuning) {
    u.headTuning = wanted;
    u.release(head, wanted);
  }
}

function cellSteps(u, cell) {
  const { add, kubectl, url, urlB, head } = u;
  const s = cell.scenario;
  add({
    title: `${cell.id}: backend replicas = ${s.replicas}`,
    argv: kubectl('-n', NAMESPACE, 'scale', 'deployment/backend', `--replicas=${s.replicas}`),
  });
  // A rollout fault means the same surge/unavailability as on the local target.
  const rollout = s.faults.find((x) => x.type === 'rollout');
  const strategy = { maxSurge: rollout?.maxSurge ?? 1, maxUnavailable: rollout?.maxUnavailable ?? 0 };
  add({
    title: `${cell.id}: backend rollout strategy maxSurge ${strategy.maxSurge}, maxUnavailable ${strategy.maxUnavailable}`,
    argv: kubectl(
      '-n',
      NAMESPACE,
      'patch',
      'deployment/backend',
      '--type=merge',
      '-p',
      JSON.stringify({ spec: { strategy: { type: 'RollingUpdate', rollingUpdate: strategy } } }),
    ),
  });
  add({
    timeoutMs: 320_000,
    title: `${cell.id}: wait for the backend rollout`,
    argv: kubectl('-n', NAMESPACE, 'rollout', 'status', 'deployment/backend', '--timeout=300s'),
  });
  for (const [x, who] of [[url, 'the ingress'], ...(urlB ? [[urlB, "the head's ingress"]] : [])])
    add({
      kind: 'preflight',
      timeoutMs: 90_000,
      title: `${cell.id}: wait until ${who} routes to the backend`,
      argv: ['tailgate-internal', 'wait-http', `${x}/healthz`, 'bench.local', '60s'],
      builtin: 'waitHttp',
      url: `${x}/healthz`,
      host: 'bench.local',
    });
  const where = s.loadFrom === 'cluster' ? ' as a Job inside the cluster' : '';
  const sides = urlB ? ` per side, requests alternating between base (${url}) and head (${urlB})` : '';
  add({
    kind: 'measure',
    timeoutMs: k6Budget(s),
    title: `${cell.id}: k6 ${s.script}${where} at ${s.rate ?? 1}/s${sides} for ${s.duration}${s.faults.length ? ` with ${s.faults.map((x) => x.type).join(', ')}` : ''}`,
    cell,
    url,
    urlB,
    headNamespace: head ? INGRESS_NAMESPACE_B : null,
    argv: k6Argv(cell),
    env: k6EnvShown(cell, url, urlB),
    faultsShown: faultCommands(cell, kubectl),
    ...(s.loadFrom === 'cluster' ? { manifestShown: jobManifestFor(s) } : {}),
  });
}

function teardownSteps(u) {
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
    argv: helm('uninstall', 'backend', '-n', NAMESPACE, '--ignore-not-found'),
  });
}

// The head of a duet: its controller's catalog entry, which must say how a second
// release of it coexists with the first (controller.yaml `duet:`: values for side a that
// keep the base to its own IngressClass, values for side b with the head's class and
// host port).
function duetHead(concurrent, baseCat) {
  const cat = catalogEntry(concurrent.name, concurrent.controller);
  for (const c of [baseCat, cat])
    if (!c.duet)
      throw new InputError(
        `controller "${c.name}" cannot run in a duet on one cluster: its catalog entry has no duet section (controller.yaml)`,
      );
  if (baseCat.gateway || cat.gateway)
    throw new InputError('a duet on one cluster routes through Ingress only (routing: gateway is not supported yet)');
  return {
    controller: concurrent.name,
    cat,
    namespace: INGRESS_NAMESPACE_B,
    release: `${concurrent.name}-b`,
    extra: [cat.duet.b],
    ingressClass: cat.duet.ingressClassB,
  };
}

// One release of a controller: the sysctl preflight, the helm install with the catalog's
// values, the offline values, the tuning's overlay and a side's extra values; its data
// plane; the rollout, Ready and route waits. Called once per tuning for a controller, and
// once more for the head of a duet.
function releaseSteps({ ctx, side, tuning, kubectl, helm, add, afterInstall = () => {} }) {
  const { controller, cat, namespace, extra = [] } = side;
  const release = side.release ?? controller;
  const overlay = cat.overlay(tuning);
  const files = [cat.values, ctx.offline && cat.offlineValues, cat.gateway?.values, overlay, ...extra].filter(Boolean);
  const sysctls = unsafeSysctls(files);
  if (sysctls.length)
    add({
      kind: 'preflight',
      timeoutMs: 180_000,
      title: `check that the kubelets allow ${sysctls.join(', ')} (set by tuning "${tuning}")`,
      argv: ['tailgate-internal', 'check-kubelet-sysctls', ...sysctls],
      builtin: 'checkSysctls',
      sysctls,
      tuning,
      kubectlArgv: kubectl(),
    });
  const values = files.flatMap((file) => ['-f', rel(file)]);
  const chart = cat.chart;
  let source = !ctx.offline ? chartSource(chart) : cat.upstream ? [upstreamChartDir(cat.upstream)] : null;
  if (!source) {
    const archive = rel(archivePath(chart, ctx.env));
    const into = join(ctx.runDirShown, 'charts', `${chart.name}-${chart.version}`);
    add({
      title: `unpack ${archive} as helm packages it (its .helmignore applies to a folder only)`,
      argv: ['tailgate-internal', 'unpack-chart', archive, into],
      builtin: 'unpackChart',
      archive,
      into,
      name: chart.name,
    });
    source = [join(into, chart.name)];
  }
  // The values against the chart itself (its templates and values schema) before any
  // cluster starts: a values mistake in a PR is one line naming the files, never an
  // install that fails once per cell. The driver runs every such step at the start.
  add({
    kind: 'check',
    builtin: 'checkValues',
    timeoutMs: 120_000,
    title: `check ${release}'s values against chart ${cat.upstream ? cat.upstream.version : chart.version} (helm template)`,
    argv: ['helm', 'template', release, ...source, '-n', namespace, '--kube-version', PINS.kubernetes, ...values],
    files: files.map(rel),
    chart: `${chart.name} ${cat.upstream ? cat.upstream.version : chart.version}`,
    release,
  });
  const diagnose = [
    kubectl('-n', namespace, 'get', 'events', '--field-selector', 'type=Warning', '--sort-by=.lastTimestamp'),
    ...[cat.podSelector, cat.controlPlaneSelector]
      .filter(Boolean)
      .map((sel) => kubectl('-n', namespace, 'logs', '-l', sel, '--all-containers', '--tail=8', '--prefix')),
  ];
  add({
    timeoutMs: 360_000,
    title: `install ${release === controller ? controller : `the head ${release} (${controller})`} ${ctx.offline ? (cat.upstream ? `${cat.upstream.version} (its chart from its Go module)` : `${chart.version} (the archive in the charts folder, sha256 checked)`) : chart.version} with tuning "${tuning}"`,
    argv: helm(
      'upgrade',
      '--install',
      release,
      ...source,
      '-n',
      namespace,
      '--create-namespace',
      ...values,
      '--wait',
      '--timeout',
      '5m',
    ),
    diagnose,
  });
  afterInstall();
  if (cat.dataplane)
    for (const step of dataplaneSteps({ controller, cat, tuning, values, helm, kubectl, diagnose })) add(step);
  // With one replica and maxUnavailable 1, `helm --wait` returns while the new pod
  // is still unready (it waits for replicas - maxUnavailable = 0): wait for the
  // rollout itself, then for Ready pods.
  add({
    timeoutMs: 320_000,
    title: `wait for the ${release} rollout`,
    argv: kubectl('-n', namespace, 'rollout', 'status', cat.workload, '-l', cat.podSelector, '--timeout=300s'),
    diagnose,
  });
  add({
    timeoutMs: 320_000,
    title: `wait until ${release} is Ready`,
    argv: kubectl('-n', namespace, 'wait', '--for=condition=Ready', 'pod', '-l', cat.podSelector, '--timeout=300s'),
    diagnose,
  });
  if (cat.gateway) for (const step of gatewayReadySteps(cat, kubectl, { programmed: !cat.dataplane })) add(step);
}

const OFFLINE_BACKEND_IMAGE = 'localhost/tailgate-backend-nginx:1.22.1';

// tools/scripts/build-backend-image.sh: the host's Debian nginx, Lua module included.
// Gateway API CRDs at the pinned version: the official release manifest where it can be
// downloaded, the same files from the Go module proxy's copy of the module offline.
function gatewayCrdSteps(ctx, kubectl) {
  const version = PINS['gateway-api'];
  const source = ctx.offline
    ? upstreamChartDir({ goModule: 'sigs.k8s.io/gateway-api', version, path: 'config/crd/standard' })
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
// refuses fails here with the condition's own message, never as a run of 404s.
function gatewayReadySteps(cat, kubectl, { programmed = true } = {}) {
  return [
    ...(programmed ? [programmedStep(cat, kubectl)] : []),
    {
      kind: 'preflight',
      timeoutMs: 90_000,
      title: 'wait until the HTTPRoute is Accepted with its references resolved',
      argv: ['tailgate-internal', 'wait-route', `${NAMESPACE}/backend`, '60s'],
      builtin: 'waitRoute',
      getArgv: kubectl('-n', NAMESPACE, 'get', 'httproute', 'backend', '-o', 'json'),
    },
  ];
}

const CONDITIONS = '{range .status.conditions[*]}{.type}={.status} {.reason}: {.message}{"\\n"}{end}';

function programmedStep(cat, kubectl, diagnose = []) {
  const gw = ['-n', INGRESS_NAMESPACE, `gateway/${cat.gateway.name}`];
  return {
    timeoutMs: 150_000,
    title: `wait until Gateway ${cat.gateway.name} is Programmed`,
    argv: kubectl('wait', '--for=condition=Programmed', ...gw, '--timeout=120s'),
    diagnose: [kubectl('get', ...gw, '-o', `jsonpath=${CONDITIONS}`), ...diagnose],
  };
}

// A controller that turns resources into proxy pods (Envoy Gateway): our data plane
// chart with the same values and the tuning's name, then the Gateway Programmed (v1.9.1:
// only once its Envoy Deployment has an available replica), then the Deployment's pod
// template carrying this tuning — the controller applies a tuning switch after helm
// returns, and the rollout wait that follows must not see the previous tuning's
// finished rollout.
function dataplaneSteps({ controller, cat, tuning, values, helm, kubectl, diagnose }) {
  return [
    {
      timeoutMs: 200_000,
      title: `install the ${controller} data plane (GatewayClass, Gateway, proxy settings) with tuning "${tuning}"`,
      argv: helm(
        'upgrade',
        '--install',
        `${controller}-dataplane`,
        rel(cat.dataplane),
        '-n',
        INGRESS_NAMESPACE,
        ...values,
        '--set-string',
        `tuning=${tuning}`,
        '--wait',
        '--timeout',
        '3m',
      ),
      diagnose,
    },
    programmedStep(cat, kubectl, diagnose),
    {
      timeoutMs: 150_000,
      title: `wait until ${controller} has rolled its proxy Deployment to tuning "${tuning}"`,
      argv: kubectl(
        '-n',
        INGRESS_NAMESPACE,
        'wait',
        `--for=jsonpath={.spec.template.metadata.labels.tailgate-tuning}=${tuning}`,
        'deployment',
        '-l',
        cat.podSelector,
        '--timeout=120s',
      ),
      // Envoy Gateway makes the Deployment after helm returns: none may match yet.
      retryWhileOutput: /no matching resources found/,
      diagnose,
    },
  ];
}

// An OCI registry holds the chart at <repo>/<name>; a classic repository is --repo.
function chartSource(chart) {
  return chart.repo.startsWith('oci://')
    ? [`${chart.repo}/${chart.name}`, '--version', chart.version]
    : [chart.name, '--repo', chart.repo, '--version', chart.version];
}

function backendRouting(cat) {
  if (!cat.gateway) return [];
  return [
    '--set',
    'ingress.enabled=false',
    '--set',
    'httpRoute.enabled=true',
    '--set',
    `httpRoute.gatewayName=${cat.gateway.name}`,
    '--set',
    `httpRoute.gatewayNamespace=${INGRESS_NAMESPACE}`,
  ];
}

// Duet canaries (scenario headDelay [× headDelayShare], headErrors, backendErrors): the
// head's Ingress reaches the pods on a port that sleeps first or fails a share with 503, over the
// backend's own error share on both routes (the backend chart's extraClassDelayMs,
// extraClassErrorPercent, errorPercent; Lua, as in the offline image).
function headCanary(cells) {
  const most = (key, parse) =>
    Math.max(0, ...cells.map((c) => (c.concurrent && c.scenario[key] ? parse(c.scenario[key]) : 0)));
  const percent = (text) => Number((100 * parsePercent(text)).toPrecision(6));
  const values = [
    ['ingress.extraClassDelayMs', most('headDelay', parseDuration)],
    ['ingress.extraClassDelayPercent', most('headDelayShare', percent)],
    ['ingress.extraClassErrorPercent', most('headErrors', percent)],
    ['errorPercent', most('backendErrors', percent)],
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

function offlineBackend(ctx) {
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

// The dry run shows the very command run/k6.js executes (same builder), with the
// results folder and the script path written relative.
function k6Argv(cell) {
  const cellDir = `results/<run>/${cell.id}`;
  return ['k6', ...k6Args(cell.scenario, cellDir).map((a) => (a.startsWith(ROOT) ? rel(a) : a))];
}

function k6EnvShown(cell, url, urlB) {
  return k6Env(cellLoad(cell), { url, urlB, host: 'bench.local', summary: `results/<run>/${cell.id}/k6-summary.json` });
}

// Faults are driven live (random pods, on a clock); the dry run shows the kubectl
// command each action uses so a user can reproduce one by hand — from the fault's own
// module, so a new fault type cannot be shown as another.
function faultCommands(cell, kubectl) {
  return cell.scenario.faults.map((f) =>
    faultModule(f.type).kubeCommand(f, (...args) => kubectl('-n', NAMESPACE, ...args)),
  );
}

// Where `go mod download` puts a module: $GOMODCACHE/<escaped path>@<version> (upper-case
// letters escaped as !lower, the module cache's rule).
function upstreamChartDir(up) {
  const cache = moduleCache();
  const escaped = up.goModule.replace(/[A-Z]/g, (c) => `!${c.toLowerCase()}`);
  return join(cache, `${escaped}@${up.version}`, up.path);
}

// One `go env` per process: every upstream chart and the Gateway API CRDs live there.
let gomodcache;
function moduleCache() {
  if (gomodcache === undefined) {
    const r = runSync(['go', 'env', 'GOMODCACHE'], { timeoutMs: 30_000 });
    gomodcache = r.code === 0 && r.stdout.trim() ? r.stdout.trim() : '$(go env GOMODCACHE)';
  }
  return gomodcache;
}

function groupBy(xs, key) {
  const m = new Map();
  for (const x of xs) {
    const k = key(x);
    if (!m.has(k)) m.set(k, []);
    m.get(k).push(x);
  }
  return m;
}
