// One release of a controller: install or upgrade with the catalog's values, the tuning's
// overlay and a side's values; its data plane; the waits before load.
import { join } from 'node:path';
import { InputError } from '../../../errors.js';
import { catalogEntry } from '../../../registry/catalog.js';
import { archivePath } from '../../../registry/chart-archive.js';
import { unsafeSysctls } from '../sysctls.js';
import { PINS } from '../../../version.js';
import { INGRESS_NAMESPACE, INGRESS_NAMESPACE_B, rel } from '../context.js';
import { gatewayReadySteps, programmedStep } from './gateway.js';
import { loadedRoute } from './backend.js';
import { upstreamChartDir } from './module-path.js';

export function installSteps(u, tuning) {
  const { controller, cat, head } = u;
  // The backend right after the first install where that install brings the CRDs its
  // route needs.
  const baseExtra = head ? [cat.duet.a, ...(cat.gateway ? [cat.duet.gateway.a] : [])] : [];
  u.release({ controller, cat, namespace: INGRESS_NAMESPACE, extra: baseExtra }, tuning, () => {
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

// The head of a duet: its controller's catalog entry, which must say how a second
// release of it coexists with the first (controller.yaml `duet:`: values for side a that
// keep the base to its own IngressClass, values for side b with the head's class and
// host port; with routing: gateway, each side's GatewayClass and the head's Gateway,
// which the backend's second HTTPRoute attaches to).
export function duetHead(concurrent, baseCat) {
  const cat = catalogEntry(concurrent.name, concurrent.controller);
  for (const c of [baseCat, cat])
    if (!c.duet)
      throw new InputError(
        `controller "${c.name}" cannot run in a duet on one cluster: its catalog entry has no duet section (controller.yaml)`,
      );
  // Each side routes as its own entry says: Ingress beside Gateway API is a migration
  // (its backend routes each side its own way, backend.js backendRouting).
  for (const c of [baseCat, cat])
    if (c.gateway && (!c.duet.gateway || c.dataplane))
      throw new InputError(
        `controller "${c.name}" cannot run a Gateway API duet on one cluster: its catalog entry's duet section has no gatewayA, gatewayB and gatewayNameB (controller.yaml)`,
      );
  const gateway = Boolean(cat.gateway);
  return {
    controller: concurrent.name,
    cat,
    namespace: INGRESS_NAMESPACE_B,
    release: `${concurrent.name}-b`,
    extra: [cat.duet.b, ...(gateway ? [cat.duet.gateway.b] : [])],
    ingressClass: cat.duet.ingressClassB,
    gateway: gateway
      ? {
          name: cat.duet.gateway.nameB,
          namespace: INGRESS_NAMESPACE_B,
          route: loadedRoute('head', cat.duet.gateway.nameB),
        }
      : null,
  };
}

// One release of a controller: the sysctl preflight, the helm install with the catalog's
// values, the offline values, the tuning's overlay and a side's extra values; its data
// plane; the rollout, Ready and route waits. Called once per tuning for a controller, and
// once more for the head of a duet.
export function releaseSteps({ ctx, side, tuning, kubectl, helm, add, afterInstall = () => {} }) {
  const { controller, cat, namespace, extra = [] } = side;
  const release = side.release ?? controller;
  const overlay = cat.overlay(tuning);
  const files = [cat.values, ctx.offline && cat.offlineValues, cat.gateway?.values, overlay, ...extra].filter(Boolean);
  sysctlPreflight(unsafeSysctls(files), { tuning, kubectl, add });
  const values = files.flatMap((file) => ['-f', rel(file)]);
  const chart = cat.chart;
  const source = chartSourceOf(ctx, cat, add);
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
    // Its rendered manifests also say whether a duet's two sides share the node fairly
    // (one-at-a-time.js): by release, tuning and namespace.
    tuning,
    namespace,
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
  if (cat.gateway)
    for (const step of gatewayReadySteps(cat, kubectl, { programmed: !cat.dataplane, gateway: side.gateway }))
      add(step);
}

// Tunings that set unsafe sysctls: the kubelets must allow them, checked before helm waits 5
// minutes for pods that can never start.
function sysctlPreflight(sysctls, { tuning, kubectl, add }) {
  if (!sysctls.length) return;
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
}

// Where helm reads the chart: its repository online; offline the Go module's chart folder
// (upstream) or the checked archive, unpacked into the run folder by a step of its own.
function chartSourceOf(ctx, cat, add) {
  const chart = cat.chart;
  if (!ctx.offline) return chartSource(chart);
  if (cat.upstream) return [upstreamChartDir(cat.upstream, ctx.goModCache)];
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
  return [join(into, chart.name)];
}

// A controller that turns resources into proxy pods (Envoy Gateway): our data plane
// chart with the same values and the tuning's name, then the Gateway Programmed (v1.9.1:
// only once its Envoy Deployment has an available replica), then the Deployment's pod
// template carrying this tuning — the controller applies a tuning switch after helm
// returns, and the rollout wait that follows must not see the previous tuning's
// finished rollout.
export function dataplaneSteps({ controller, cat, tuning, values, helm, kubectl, diagnose }) {
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
export function chartSource(chart) {
  return chart.repo.startsWith('oci://')
    ? [`${chart.repo}/${chart.name}`, '--version', chart.version]
    : [chart.name, '--repo', chart.repo, '--version', chart.version];
}
