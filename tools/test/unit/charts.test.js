// The backend chart lints, renders, and validates against Kubernetes schemas
// (generated offline); the controller catalog pins every chart and maps every
// tuning the matrices use.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { PINS } from '../../src/version.js';
import { parse } from 'yaml';
import { loadBench } from '../../src/config/load.js';
import {
  ROOT,
  SCHEMAS,
  assertValid,
  crdSchemas,
  helm,
  kubeconform,
  controllerChart,
  renderDocs,
  upstreamChart,
  validate,
} from '../helpers/charts.js';

const CHART = join(ROOT, 'charts', 'backend');
const valueFiles = ['', ...readdirSync(join(CHART, 'ci')).map((f) => join(CHART, 'ci', f))];

function template(values = [], set = []) {
  return spawnSync(
    helm,
    ['template', 't', CHART, ...values.flatMap((v) => (v ? ['-f', v] : [])), ...set.flatMap((s) => ['--set', s])],
    { encoding: 'utf8' },
  );
}

test('charts: tools are installed (make setup)', () => {
  assert.ok(helm, 'helm not found in .tools/bin');
  assert.ok(kubeconform, 'kubeconform not found in .tools/bin');
  assert.ok(existsSync(join(SCHEMAS, 'deployment-apps-v1.json')), 'kubernetes schemas not generated');
});

for (const values of valueFiles) {
  test(`charts: backend lints, renders and validates${values ? ` with ${values.split('/').at(-1)}` : ''}`, () => {
    const lint = spawnSync(helm, ['lint', '--strict', CHART, ...(values ? ['-f', values] : [])], { encoding: 'utf8' });
    assert.equal(lint.status, 0, lint.stdout + lint.stderr);
    const out = template([values]);
    assert.equal(out.status, 0, out.stderr);
    const v = validate(out.stdout);
    assert.equal(v.status, 0, v.stdout + v.stderr);
    assert.match(v.stdout, /Invalid: 0, Errors: 0/);
    const kinds = parse(
      `[${out.stdout
        .split(/^---$/m)
        .filter((d) => d.trim() && !/^\s*#[^\n]*\s*$/.test(d))
        .map((d) => JSON.stringify(parse(d)))
        .join(',')}]`,
    )
      .map((d) => d?.kind)
      .filter(Boolean);
    for (const k of ['ConfigMap', 'Deployment', 'Service', 'Ingress']) assert.ok(kinds.includes(k), `${k} rendered`);
  });
}

test('charts: kubeconform really rejects an invalid object (the check can fail)', () => {
  const v = validate('apiVersion: v1\nkind: Service\nmetadata: {name: x}\nspec: {portz: []}\n');
  assert.notEqual(v.status, 0);
  assert.match(v.stdout, /additional properties 'portz' not allowed/);
});

test('charts: an injected delay without Lua in the image fails with a clear message', () => {
  const out = template([], ['delayMs=5']);
  assert.notEqual(out.status, 0);
  assert.match(out.stderr, /delayMs, errorPercent and the extra classes' canaries need an nginx with Lua/);
});

test("charts: a duet's delay canary on a share of the head's requests (a tail-sized slowdown), each worker its own random stream", () => {
  const out = template(
    [],
    [
      'ingress.extraClassNames={b}',
      'ingress.extraClassDelayMs=1',
      'ingress.extraClassDelayPercent=25',
      'lua.enabled=true',
    ],
  );
  const conf = parse(out.stdout.split(/^---$/m).find((d) => d.includes('kind: ConfigMap'))).data['nginx.conf'];
  const [base, head] = conf.split(/listen 8081/);
  assert.match(base, /location = \/0KiB \{ return 200 ""; \}/);
  assert.match(base, /init_worker_by_lua_block/);
  assert.match(head, /if math\.random\(\) < 0\.25 then ngx\.sleep\(0\.001\) end ngx\.print\(""\)/);
});

test("charts: a duet's error canary — the head's route fails its share with 503 at the same pods, the base's route the background share", () => {
  const cm = parse(
    template([join(CHART, 'ci', 'duet-canary-values.yaml')])
      .stdout.split(/^---$/m)
      .find((d) => d.includes('kind: ConfigMap')),
  );
  const [base, head] = cm.data['nginx.conf'].split(/listen 8081/);
  assert.match(
    base,
    /init_worker_by_lua_block \{ math\.randomseed\(ngx\.now\(\) \* 1000 \+ ngx\.worker\.pid\(\)\) \}/,
    'each pod its own stream',
  );
  assert.match(
    base,
    /location = \/0KiB \{ content_by_lua_block \{ if math\.random\(\) < 0\.001 then return ngx\.exit\(503\) end ngx\.print\(""\) \} \}/,
  );
  assert.match(
    head,
    /location = \/0KiB \{ content_by_lua_block \{ if math\.random\(\) < 0\.003 then return ngx\.exit\(503\) end ngx\.sleep\(0\.002\) ngx\.print\(""\) \} \}/,
  );
});

test('charts: the 1 KiB body is 1024 bytes and the probe hits /healthz', () => {
  const cm = parse(
    template()
      .stdout.split(/^---$/m)
      .find((d) => d.includes('kind: ConfigMap')),
  );
  const body = /location = \/1KiB \{ return 200 "(x+)\\n"; \}/.exec(cm.data['nginx.conf']);
  assert.equal(body[1].length + 1, 1024);
});

test('catalog: every helm controller in bench.yaml has a pinned chart and an overlay for each tuning its matrices use', () => {
  const cfg = loadBench(join(ROOT, 'bench.yaml'));
  for (const m of Object.values(cfg.matrices).filter((x) => x.target !== 'local')) {
    for (const c of m.controllers) {
      const dir = join(ROOT, 'charts', 'controllers', cfg.controllers[c].catalog ?? c);
      const entry = parse(readFileSync(join(dir, 'controller.yaml'), 'utf8'));
      assert.match(entry.chart.version, /^v?\d+\.\d+\.\d+$/, `${c}: chart version pinned`);
      assert.equal(
        entry.chart.version,
        cfg.controllers[c].chart.version,
        `${c}: bench.yaml and catalog agree on the version`,
      );
      assert.ok(existsSync(join(dir, 'values.yaml')));
      for (const t of m.tunings.filter((x) => x !== 'default'))
        assert.ok(existsSync(join(dir, 'overlays', `${t}.yaml`)), `${c}: overlay for ${t}`);
    }
  }
  for (const name of readdirSync(join(ROOT, 'charts', 'controllers')).filter((n) => !n.includes('.'))) {
    const entry = parse(readFileSync(join(ROOT, 'charts', 'controllers', name, 'controller.yaml'), 'utf8'));
    assert.ok(Array.isArray(entry.verified), `${name}: controller.yaml records which keys were verified`);
  }
});

// The real Traefik chart at the pinned version (the archive offline runs install),
// rendered with the catalog's values, the offline values and every overlay, as an offline
// `helm upgrade` would (online, no image is pinned: init-values.test.js).
const traefikEntry = parse(readFileSync(join(ROOT, 'charts', 'controllers', 'traefik', 'controller.yaml'), 'utf8'));
test(`catalog: Traefik chart ${traefikEntry.chart.version} with our values and overlays: ClusterIP, hostPort 80, upgradable on one node, image pinned offline`, (t) => {
  const { dir, skip } = controllerChart('traefik');
  if (skip) return t.skip(skip);
  assert.match(
    readFileSync(join(dir, 'Chart.yaml'), 'utf8'),
    new RegExp(`^version: ${traefikEntry.chart.version}$`, 'm'),
  );
  const base = join(ROOT, 'charts', 'controllers', 'traefik');
  for (const overlay of [null, ...readdirSync(join(base, 'overlays')).map((f) => join(base, 'overlays', f))]) {
    const args = [
      'template',
      'traefik',
      dir,
      '--kube-version',
      PINS.kubernetes,
      '-n',
      'tailgate-ingress',
      '-f',
      join(base, 'values.yaml'),
      '-f',
      join(base, 'offline-values.yaml'),
      ...(overlay ? ['-f', overlay] : []),
    ];
    const docs = renderDocs(args);
    const dep = docs.find((d) => d.kind === 'Deployment');
    const svc = docs.find((d) => d.kind === 'Service');
    assert.equal(svc.spec.type, 'ClusterIP', 'kind gives no LoadBalancer IP');
    assert.deepEqual(
      dep.spec.strategy.rollingUpdate,
      { maxUnavailable: 1, maxSurge: 0 },
      'a new pod can take hostPort 80 on the only ingress node',
    );
    const c = dep.spec.template.spec.containers[0];
    assert.equal(c.image, `localhost/traefik:${PINS.traefik}`);
    assert.ok(
      c.ports.some((p) => p.hostPort === 80),
      'listens on hostPort 80',
    );
    // The perf canaries (overlays/canary-*.yaml) change other things on purpose.
    if (overlay?.endsWith('tuned.yaml'))
      assert.deepEqual(dep.spec.template.spec.securityContext.sysctls, [
        { name: 'net.core.somaxconn', value: '32768' },
      ]);
    assertValid(docs);
  }
});

test('catalog: Traefik chart with the gateway values: a Gateway open to the benchmark namespace, GatewayClass traefik', (t) => {
  const { dir, skip } = controllerChart('traefik');
  if (skip) return t.skip(skip);
  const base = join(ROOT, 'charts', 'controllers', 'traefik');
  const args = ['template', 'traefik-gateway', dir, '--kube-version', PINS.kubernetes, '-n', 'tailgate-ingress'];
  const docs = renderDocs([...args, '-f', join(base, 'values.yaml'), '-f', join(base, traefikEntry.gateway.values)]);
  const gw = docs.find((d) => d.kind === 'Gateway');
  assert.equal(gw.metadata.name, traefikEntry.gateway.name, 'the name the HTTPRoute attaches to');
  assert.equal(gw.spec.gatewayClassName, 'traefik');
  assert.deepEqual(
    gw.spec.listeners.map((l) => [l.name, l.port, l.allowedRoutes?.namespaces?.from]),
    [['web', 8000, 'All']],
  );
  assert.ok(docs.some((d) => d.kind === 'GatewayClass'));
  const c = docs.find((d) => d.kind === 'Deployment').spec.template.spec.containers[0];
  assert.ok(c.args.includes('--providers.kubernetesgateway'), 'the Gateway API provider is on');
  // The Gateway and GatewayClass against the Gateway API CRDs tailgate installs.
  const v = assertValid(docs, { crds: gatewayApiSchemas() });
  assert.match(v.stdout, /Skipped: 0/);
});

// Gateway API at tailgate's pin (the standard channel it installs), as kubeconform schemas.
let gatewayApi;
function gatewayApiSchemas() {
  const dir = upstreamChart({
    goModule: 'sigs.k8s.io/gateway-api',
    version: PINS['gateway-api'],
    path: 'config/crd/standard',
  });
  assert.ok(dir, 'Gateway API CRDs from the Go module proxy');
  gatewayApi ??= crdSchemas([dir]);
  return gatewayApi;
}

test("charts: the backend's HTTPRoute validates against the pinned Gateway API CRDs", () => {
  const out = template(
    [],
    [
      'ingress.enabled=false',
      'httpRoute.enabled=true',
      'httpRoute.gatewayName=g',
      'httpRoute.gatewayNamespace=tailgate-ingress',
    ],
  );
  assert.equal(out.status, 0, out.stderr);
  const docs = out.stdout
    .split(/^---$/m)
    .map((d) => parse(d))
    .filter((d) => d?.kind);
  assert.ok(docs.some((d) => d.kind === 'HTTPRoute'));
  assert.ok(!docs.some((d) => d.kind === 'Ingress'));
  const v = assertValid(docs, { crds: gatewayApiSchemas() });
  assert.match(v.stdout, /Skipped: 0/);
});

// haproxy-ingress's real chart (the archive offline runs install), rendered with the
// catalog's values, the offline values and every overlay: it must listen on hostPort 80
// as a DaemonSet.
test('catalog: haproxy-ingress chart 0.14.7 with our values and overlays: DaemonSet on hostPort 80, replaceable on one node', (t) => {
  const base = join(ROOT, 'charts', 'controllers', 'haproxy-ingress');
  const chart = controllerChart('haproxy-ingress');
  if (chart.skip) return t.skip(chart.skip);
  for (const overlay of [null, ...readdirSync(join(base, 'overlays')).map((f) => join(base, 'overlays', f))]) {
    const values = ['values.yaml', 'offline-values.yaml'].flatMap((f) => ['-f', join(base, f)]);
    const args = ['template', 'haproxy-ingress', chart.dir, '--kube-version', PINS.kubernetes];
    const docs = renderDocs([...args, '-n', 'tailgate-ingress', ...values, ...(overlay ? ['-f', overlay] : [])]);
    const ds = docs.find((d) => d.kind === 'DaemonSet');
    assert.ok(ds, 'a DaemonSet: chart 0.14.7 honours useHostPort only there');
    assert.deepEqual(ds.spec.updateStrategy.rollingUpdate, { maxUnavailable: 1 });
    const c = ds.spec.template.spec.containers[0];
    assert.equal(c.image, `localhost/haproxy-ingress:${PINS['haproxy-ingress']}`);
    assert.ok(c.ports.some((p) => p.name === 'http' && p.hostPort === 80));
    assert.ok(docs.some((d) => d.kind === 'IngressClass' && d.metadata.name === 'haproxy'));
    if (overlay?.endsWith('failover.yaml'))
      assert.equal(docs.find((d) => d.kind === 'ConfigMap').data['timeout-connect'], '1s');
    // The route canary (make perf): the controller applies changes every 4 s, not 2.
    // The failover canary (make perf): a dead pod's connect waits 6.5 s, not 5.
    else if (overlay?.endsWith('canary-failover-6500ms.yaml'))
      assert.equal(docs.find((d) => d.kind === 'ConfigMap').data['timeout-connect'], '6500ms');
    else if (overlay?.endsWith('canary-update-2500ms.yaml'))
      assert.ok(c.args.includes('--rate-limit-update=0.4'), c.args.join(' '));
    else if (overlay?.endsWith('canary-update-4s.yaml'))
      assert.ok(c.args.includes('--rate-limit-update=0.25'), c.args.join(' '));
    else if (overlay) {
      assert.equal(docs.find((d) => d.kind === 'ConfigMap').data['max-connections'], '8192');
      assert.deepEqual(ds.spec.template.spec.securityContext.sysctls, [{ name: 'net.core.somaxconn', value: '32768' }]);
    }
    assertValid(docs);
  }
});

test('catalog: duet values — side a watches only its own IngressClass, side b has its own class, controller and hostPort 81 (the real charts and their values schemas)', (t) => {
  const traefik = join(ROOT, 'charts', 'controllers', 'traefik');
  const [tc, hc] = [controllerChart('traefik'), controllerChart('haproxy-ingress')];
  if (tc.skip || hc.skip) return t.skip(tc.skip ?? hc.skip);
  const render = (chart, base, side, release, ns) =>
    renderDocs([
      'template',
      release,
      chart,
      '--kube-version',
      PINS.kubernetes,
      '-n',
      ns,
      ...['values.yaml', 'offline-values.yaml', `duet-${side}.yaml`]
        .filter((f) => existsSync(join(base, f)))
        .flatMap((f) => ['-f', join(base, f)]),
    ]);
  const args = (docs, kind) => docs.find((d) => d.kind === kind).spec.template.spec.containers[0];
  const ta = render(tc.dir, traefik, 'a', 'traefik', 'tailgate-ingress');
  const tb = render(tc.dir, traefik, 'b', 'traefik-b', 'tailgate-ingress-b');
  assert.ok(args(ta, 'Deployment').args.includes('--providers.kubernetesingress.ingressClass=traefik'));
  assert.ok(args(tb, 'Deployment').args.includes('--providers.kubernetesingress.ingressClass=traefik-b'));
  assert.ok(args(tb, 'Deployment').ports.some((p) => p.hostPort === 81));
  const classB = tb.find((d) => d.kind === 'IngressClass');
  assert.equal(classB.metadata.name, 'traefik-b');
  assert.notEqual(classB.metadata.annotations?.['ingressclass.kubernetes.io/is-default-class'], 'true');
  for (const docs of [ta, tb]) assertValid(docs);
  const haproxy = join(ROOT, 'charts', 'controllers', 'haproxy-ingress');
  const hb = render(hc.dir, haproxy, 'b', 'haproxy-ingress-b', 'tailgate-ingress-b');
  const c = args(hb, 'DaemonSet');
  assert.ok(c.args.includes('--controller-class=b') && c.args.includes('--ingress-class=haproxy-b'));
  assert.ok(c.ports.some((p) => p.name === 'http' && p.hostPort === 81));
  assert.deepEqual(
    c.ports.filter((p) => p.hostPort).map((p) => p.hostPort),
    [81],
    "side a holds 80 and 443: side b's pod must fit beside it",
  );
  assert.equal(hb.find((d) => d.kind === 'IngressClass').spec.controller, 'haproxy-ingress.github.io/controller/b');
  const ha = render(hc.dir, haproxy, 'a', 'haproxy-ingress', 'tailgate-ingress');
  assert.ok(!args(ha, 'DaemonSet').args.some((a) => a.startsWith('--controller-class')));
  for (const docs of [ha, hb]) assertValid(docs);
});

test('clusters: every kind topology lets kubelets accept net.core.somaxconn (no SysctlForbidden)', () => {
  for (const f of ['single', 'affinity', 'anti-affinity']) {
    const doc = parse(readFileSync(join(ROOT, 'clusters', `${f}.yaml`), 'utf8'));
    const kubelet = doc.kubeadmConfigPatches.map((p) => parse(p)).find((p) => p.kind === 'KubeletConfiguration');
    assert.ok(kubelet.allowedUnsafeSysctls.includes('net.core.somaxconn'), f);
  }
});

test('report: a results folder renders markdown too, and charts carry a .hgrm per side', async () => {
  const { scratchDir } = await import('../helpers/scratch.js');
  const { makeRunDir } = await import('../helpers/run-dir.js');
  const { runCli } = await import('../helpers/cli.js');
  const { chartsForCell } = await import('../../src/report/cell-charts.js');
  const { collectRun } = await import('../../src/result/run-dir.js');
  const root = scratchDir('tg-rep-');
  const run = await makeRunDir({ 'c/t/s': [{ medianMs: 2, seed: 1 }] }, join(root, 'run'));
  const md = join(root, 'run.md');
  const r = await runCli(['report', run, '--markdown', md]);
  assert.equal(r.code, 0, r.out);
  assert.match(readFileSync(md, 'utf8'), /c\/t\/s/);
  const [cell] = collectRun(run);
  chartsForCell(join(root, 'charts'), cell.key, cell.reps, cell.reps);
  for (const f of ['head.hgrm', 'base.hgrm']) assert.ok(existsSync(join(root, 'charts', 'c__t__s', f)), f);
});
