// Envoy Gateway cannot run here (no Envoy image), so what can be checked here is
// checked against the pinned release itself: its chart (from the Go module proxy, the
// values template filled in as its release does) rendered with our values and every
// overlay, and the data plane chart's resources validated against the CRDs of the same
// release — a key that Envoy Gateway v1.9.1 does not know fails make test.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { PINS } from '../../src/version.js';
import {
  ROOT,
  assertValid,
  chartFromTemplate,
  crdSchemas,
  helm,
  renderDocs,
  upstreamChart,
  validate,
} from '../helpers/charts.js';
import { scratchDir } from '../helpers/scratch.js';

const BASE = join(ROOT, 'charts', 'controllers', 'envoy-gateway');
const entry = parse(readFileSync(join(BASE, 'controller.yaml'), 'utf8'));
const overlays = [null, ...readdirSync(join(BASE, 'overlays')).map((f) => join(BASE, 'overlays', f))];
const valuesFor = (overlay) => ['-f', join(BASE, 'values.yaml'), ...(overlay ? ['-f', overlay] : [])];
const tuningOf = (overlay) =>
  overlay
    ? overlay
        .split('/')
        .at(-1)
        .replace(/\.yaml$/, '')
    : 'default';
// Our data plane chart rendered as helm would install it, with further helm arguments.
const renderDataplane = (...args) =>
  renderDocs(['template', 'envoy-gateway-dataplane', join(BASE, entry.dataplane), '-n', 'tailgate-ingress', ...args]);

let module;
function release() {
  if (module) return module;
  const src = upstreamChart(entry.upstream);
  assert.ok(src, 'the chart source comes from the Go module proxy (go mod download)');
  const chart = chartFromTemplate(src, entry.upstream.valuesTemplate, {
    version: entry.chart.version,
    appVersion: entry.upstream.version,
  });
  const crds = crdSchemas([join(src, 'charts', 'crds', 'crds')]);
  module = { src: join(src, '..', '..'), chart, crds };
  return module;
}

test('catalog: Envoy Gateway pins one release everywhere (chart, module, image, bench.yaml)', () => {
  const bench = parse(readFileSync(join(ROOT, 'bench.yaml'), 'utf8'));
  assert.equal(entry.chart.version, entry.upstream.version);
  assert.equal(entry.upstream.valuesTemplate.set.GatewayImage, `docker.io/envoyproxy/gateway:${entry.chart.version}`);
  assert.equal(readFileSync(join(release().src, 'VERSION'), 'utf8').trim(), entry.chart.version);
  assert.deepEqual(bench.controllers['envoy-gateway'].chart, entry.chart);
  assert.equal(bench.controllers['envoy-gateway'].routing, 'gateway');
  const dp = parse(readFileSync(join(BASE, entry.dataplane, 'Chart.yaml'), 'utf8'));
  assert.equal(dp.appVersion, entry.chart.version, 'the data plane chart names the release its CRDs come from');
});

test('catalog: Envoy Gateway chart v1.9.1 with our values and every overlay renders and validates; it ignores the data plane keys', () => {
  const { chart } = release();
  assert.ok(
    !existsSync(join(chart, 'values.schema.json')),
    'no values schema: the data plane keys pass through unread',
  );
  for (const overlay of overlays) {
    const args = ['template', 'envoy-gateway', chart, '--kube-version', PINS.kubernetes, '-n', 'tailgate-ingress'];
    const docs = renderDocs([...args, ...valuesFor(overlay)]);
    const dep = docs.find((d) => d.kind === 'Deployment' && d.metadata.name === 'envoy-gateway');
    assert.ok(dep, 'the controller Deployment');
    assert.equal(dep.spec.replicas, 1);
    assert.equal(dep.spec.template.spec.containers[0].image, entry.upstream.valuesTemplate.set.GatewayImage);
    assertValid(docs);
  }
});

test('catalog: the Envoy Gateway data plane with every overlay validates against the release CRDs: Envoy on hostPort 80, replaceable on one node', () => {
  const { crds } = release();
  const dp = join(BASE, entry.dataplane);
  const lint = spawnSync(helm, ['lint', '--strict', dp, ...valuesFor(null)], { encoding: 'utf8' });
  assert.equal(lint.status, 0, lint.stdout + lint.stderr);
  for (const overlay of overlays) {
    const tuning = tuningOf(overlay);
    const docs = renderDataplane(
      '--kube-version',
      PINS.kubernetes,
      ...valuesFor(overlay),
      '--set-string',
      `tuning=${tuning}`,
    );
    const v = assertValid(docs, { crds });
    assert.match(v.stdout, new RegExp(`Valid: ${docs.length}, Invalid: 0, Errors: 0, Skipped: 0`));
    const gw = docs.find((d) => d.kind === 'Gateway');
    assert.equal(gw.metadata.name, entry.gateway.name, 'the name the HTTPRoute attaches to');
    const [listener] = gw.spec.listeners;
    assert.equal(listener.allowedRoutes.namespaces.from, 'All', "routes from the benchmark's namespace");
    const cls = docs.find((d) => d.kind === 'GatewayClass');
    assert.equal(gw.spec.gatewayClassName, cls.metadata.name);
    assert.equal(cls.spec.controllerName, 'gateway.envoyproxy.io/gatewayclass-controller');
    const proxy = docs.find((d) => d.kind === 'EnvoyProxy');
    assert.deepEqual(cls.spec.parametersRef, {
      group: 'gateway.envoyproxy.io',
      kind: 'EnvoyProxy',
      name: proxy.metadata.name,
      namespace: proxy.metadata.namespace,
    });
    const k = proxy.spec.provider.kubernetes;
    assert.equal(k.envoyService.type, 'ClusterIP', 'kind gives no LoadBalancer IP');
    const d = k.envoyDeployment;
    assert.deepEqual(d.strategy.rollingUpdate, { maxSurge: 0, maxUnavailable: 1 });
    assert.equal(d.pod.nodeSelector['ingress-ready'], 'true');
    assert.equal(d.pod.labels['tailgate-tuning'], tuning);
    const ports = d.patch.value.spec.template.spec.containers.find((c) => c.name === 'envoy').ports;
    // Envoy Gateway binds a listener port below 1024 at port + 10000 (wellKnownPortShift).
    assert.deepEqual(
      ports.map((p) => [p.containerPort, p.hostPort]),
      [[listener.port + 10000, 80]],
    );
    if (tuning === 'tuned')
      assert.deepEqual(d.pod.securityContext.sysctls, [{ name: 'net.core.somaxconn', value: '32768' }]);
    if (tuning === 'failover') {
      // Validated above against the release's BackendTrafficPolicy schema with the rest.
      const btp = docs.find((x) => x.kind === 'BackendTrafficPolicy');
      assert.equal(btp.spec.retry.numRetries, 2);
      assert.equal(btp.spec.timeout.tcp.connectTimeout, '1s');
    }
  }
});

test('catalog: a key Envoy Gateway v1.9.1 does not know fails the data plane check (the check can fail); the policies a user adds attach to the Gateway', () => {
  const { crds } = release();
  const withCaps = renderDataplane(
    '--set',
    'clientTrafficPolicy.connection.connectionLimit.maxRequestsPerConnection=10000',
    '--set',
    'backendTrafficPolicy.circuitBreaker.maxRequestsPerConnection=1000',
  );
  const policies = withCaps.filter((d) => d.kind.endsWith('TrafficPolicy'));
  assert.deepEqual(policies.map((d) => d.kind).sort(), ['BackendTrafficPolicy', 'ClientTrafficPolicy']);
  for (const p of policies)
    assert.deepEqual(p.spec.targetRefs[0], {
      group: 'gateway.networking.k8s.io',
      kind: 'Gateway',
      name: entry.gateway.name,
    });
  assert.match(assertValid(withCaps, { crds }).stdout, /Valid: 5, Invalid: 0, Errors: 0, Skipped: 0/);
  const docs = renderDataplane(
    '--set',
    'envoyProxy.provider.kubernetes.envoyDeployment.replica=1',
    '--set',
    'clientTrafficPolicy.connection.maxRequestPerConnection=5',
  );
  const v = validate(docs.map((x) => JSON.stringify(x)).join('\n---\n'), { crds });
  assert.notEqual(v.status, 0);
  assert.match(v.stdout, /additional properties 'replica' not allowed/);
  assert.match(v.stdout, /additional properties 'maxRequestPerConnection' not allowed/);
});

test("catalog: Envoy Gateway's pod labels, port shift, Programmed rule and admin port are what the release's source says", () => {
  const { src } = release();
  const read = (f) => readFileSync(join(src, f), 'utf8');
  const resource = read('internal/infrastructure/kubernetes/proxy/resource.go');
  for (const label of entry.podSelector.split(',')) {
    const [k, v] = label.split('=');
    if (k === 'gateway.envoyproxy.io/owning-gateway-name')
      assert.match(read('internal/gatewayapi/translator.go'), new RegExp(`OwningGatewayNameLabel = "${k}"`));
    else assert.match(resource, new RegExp(`"${k}": +"${v}"`), label);
  }
  assert.match(read('internal/gatewayapi/translator.go'), /wellKnownPortShift = 10000/);
  // The plan's Programmed wait stands for "the Envoy Deployment exists and has a pod".
  assert.match(
    read('internal/gatewayapi/status/gateway.go'),
    /case \*appsv1\.Deployment:\s+if obj != nil && obj\.Status\.AvailableReplicas > 0 \{\s+gw\.Status\.Conditions = MergeConditions\(gw\.Status\.Conditions,\s+newCondition\(string\(gwapiv1\.GatewayConditionProgrammed\), metav1\.ConditionTrue/,
  );
  assert.match(
    read('internal/xds/bootstrap/bootstrap.go'),
    new RegExp(`EnvoyAdminPort = ${entry.effectiveConfig.portForward}\\b`),
  );
  assert.match(read('internal/xds/bootstrap/bootstrap.go'), /EnvoyAdminAddress += "127\.0\.0\.1"/);
});

// Envoy Gateway applies envoyDeployment.patch to the Deployment it renders; its own tests
// keep those renders (testdata/deployments at the tag). Our patch, applied with the same
// library at the release's versions (helpers/strategic-merge), must add hostPort 80 to
// the envoy container and keep every port the release put there.
test('catalog: the hostPort patch, applied as Envoy Gateway v1.9.1 applies it, adds port 10080 -> hostPort 80 and keeps the release ports', () => {
  const { src } = release();
  const pinOf = (file, mod) => new RegExp(`${mod} (v\\S+)`).exec(readFileSync(file, 'utf8'))?.[1];
  const helper = join(ROOT, 'tools', 'test', 'helpers', 'strategic-merge', 'go.mod');
  for (const mod of ['k8s.io/api', 'k8s.io/apimachinery'])
    assert.equal(pinOf(helper, mod), pinOf(join(src, 'go.mod'), mod), `${mod}: the release's version`);
  const bin = join(scratchDir('tg-smp-'), 'strategic-merge');
  const build = spawnSync('go', ['build', '-o', bin, '.'], {
    cwd: join(ROOT, 'tools', 'test', 'helpers', 'strategic-merge'),
    encoding: 'utf8',
    env: { ...process.env, GOFLAGS: '-mod=mod' },
  });
  assert.equal(build.status, 0, build.stderr);
  const values = parse(readFileSync(join(BASE, entry.dataplane, 'values.yaml'), 'utf8'));
  const patch = values.envoyProxy.provider.kubernetes.envoyDeployment.patch;
  assert.equal(patch.type, 'StrategicMerge');
  const testdata = join(src, 'internal', 'infrastructure', 'kubernetes', 'proxy', 'testdata', 'deployments');
  let checked = 0;
  for (const f of ['default.yaml', 'with-node-selector.yaml', 'patch-deployment.yaml', 'shutdown-manager.yaml']) {
    const original = parse(readFileSync(join(testdata, f), 'utf8'));
    const before = original.spec.template.spec.containers.find((c) => c.name === 'envoy').ports;
    const r = spawnSync(bin, [join(testdata, f)], { input: JSON.stringify(patch.value), encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const after = JSON.parse(r.stdout).spec.template.spec.containers.find((c) => c.name === 'envoy').ports;
    assert.deepEqual(
      after.filter((p) => p.hostPort).map((p) => [p.containerPort, p.hostPort, p.protocol]),
      [[10080, 80, 'TCP']],
      f,
    );
    for (const p of before)
      assert.ok(
        after.some((q) => q.containerPort === p.containerPort),
        `${f}: ${p.name} kept`,
      );
    checked++;
  }
  assert.equal(checked, 4);
});
