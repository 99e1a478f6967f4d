import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { test } from 'node:test';
import { loadBench } from '../../src/config/load.js';
import { planMatrix } from '../../src/plan/plan.js';
import { dryRun } from '../../src/targets/kube/driver.js';
import { planSteps } from '../../src/targets/kube/steps/layout.js';
import { kubeContext } from '../../src/targets/kube/context.js';
import { catalogEntry } from '../../src/registry/catalog.js';
import { runCli } from '../helpers/cli.js';
import { scratchDir } from '../helpers/scratch.js';

const ROOT = new URL('../../../', import.meta.url).pathname;
const GOLDEN = new URL('../fixtures/golden/', import.meta.url);

function golden(name, actual) {
  const url = new URL(name, GOLDEN);
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(url, actual);
  assert.equal(actual, readFileSync(url, 'utf8'), `${name} differs (UPDATE_GOLDEN=1 to regenerate after review)`);
}

test('kind dry run of the pr matrix matches the golden plan', () => {
  const cwd = process.cwd();
  process.chdir(ROOT);
  try {
    const cfg = loadBench('bench.yaml');
    golden('dry-run-pr.sh', dryRun(planMatrix(cfg, 'pr'), {}));
    golden(
      'dry-run-cluster.sh',
      dryRun(
        {
          ...planMatrix(cfg, 'pr', { controllers: ['traefik'], scenarios: ['pod-kill'], repetitions: 1 }),
          matrix: { ...cfg.matrices.pr, target: 'cluster' },
        },
        { kubeconfig: '/etc/bench/kubeconfig' },
      ),
    );
  } finally {
    process.chdir(cwd);
  }
});

test('kube plans put the controller outermost and keep repetitions interleaved within it', () => {
  const cfg = loadBench(join(ROOT, 'bench.yaml'));
  const ids = planMatrix(cfg, 'pr').cells.map((c) => c.id);
  assert.deepEqual(ids.slice(0, 4), [
    'ingress-nginx/default/steady/rep-1',
    'ingress-nginx/default/pod-kill/rep-1',
    'ingress-nginx/default/steady/rep-2',
    'ingress-nginx/default/pod-kill/rep-2',
  ]);
  assert.ok(ids.indexOf('traefik/default/steady/rep-1') > ids.indexOf('ingress-nginx/default/pod-kill/rep-3'));
});

async function runWithFakes(fail, { code = 1, message = 'fake failure' } = {}) {
  const work = scratchDir('tg-fake-');
  const log = join(work, 'calls.log');
  const env = {
    PATH: process.env.PATH,
    FAKE_LOG: process.env.FAKE_LOG,
    FAKE_FAIL: process.env.FAKE_FAIL,
    FAKE_CODE: process.env.FAKE_CODE,
    FAKE_MESSAGE: process.env.FAKE_MESSAGE,
  };
  process.env.PATH = `${new URL('../fixtures/bin/fake-kube', import.meta.url).pathname}${delimiter}${env.PATH}`;
  Object.assign(process.env, { FAKE_LOG: log, FAKE_FAIL: fail, FAKE_CODE: String(code), FAKE_MESSAGE: message });
  const cwd = process.cwd();
  process.chdir(ROOT);
  try {
    const { code: exit, out } = await runCli([
      'run',
      '--matrix',
      'pr',
      '--controllers',
      'ingress-nginx',
      '--scenarios',
      'steady',
      '--repetitions',
      '1',
      '--out',
      join(work, 'results'),
    ]);
    return { exit, out, calls: readFileSync(log, 'utf8').trim().split('\n') };
  } finally {
    process.chdir(cwd);
    for (const [k, v] of Object.entries(env))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  }
}

test('kind: a failing cluster creation is retried (bounded), reported with its command, exit 4, teardown runs', async () => {
  const r = await runWithFakes('kind create cluster*', {
    message: 'ERROR: failed to create cluster: port 18080 is already allocated',
  });
  assert.equal(r.exit, 4, r.out);
  assert.equal(r.calls.filter((c) => c.startsWith('kind create cluster')).length, 3, 'one try + 2 retries');
  // Each retry first removes what the failed attempt may have left.
  const order = r.calls.filter(
    (c) => /^kind (create|delete) cluster --name tailgate-\w+-ingress-nginx/.test(c) && !c.includes('-old-'),
  );
  assert.deepEqual(
    order.map((c) => c.split(' ')[1]),
    ['create', 'delete', 'create', 'delete', 'create', 'delete'],
  );
  // kind's own reason in the message: the line a PR comment shows of the failure.
  assert.match(
    r.out,
    /step failed: create kind cluster for ingress-nginx \(single\) — failed to create cluster: port 18080 is already allocated \(exit code 1\)/,
  );
  // clusters/single.yaml, or a copy on other host ports where this machine's are busy.
  assert.match(
    r.out,
    /command: kind create cluster --name tailgate-\w+-ingress-nginx --config \S*(clusters\/single|kind-ingress-nginx)\.yaml/,
  );
  assert.match(r.out, /port 18080 is already allocated/);
  assert.ok(
    r.calls.some((c) => /^kind delete cluster --name tailgate-\w+-ingress-nginx$/.test(c)),
    'teardown ran',
  );
  assert.ok(
    r.calls.includes('kind delete cluster --name tailgate-old-ingress-nginx'),
    'stale tailgate cluster removed first',
  );
  assert.ok(!r.calls.some((c) => c.includes('someone-elses-cluster')), 'other clusters untouched');
});

test('kind: a chart that cannot be installed is an infra error naming the helm command; never retried', async () => {
  const r = await runWithFakes('helm upgrade --install ingress-nginx*', {
    message:
      'Error: chart "ingress-nginx" version "4.12.1" not found in https://kubernetes.github.io/ingress-nginx repository',
  });
  assert.equal(r.exit, 4);
  assert.equal(r.calls.filter((c) => c.startsWith('helm upgrade --install ingress-nginx')).length, 1);
  assert.match(
    r.out,
    /command: helm upgrade --install ingress-nginx ingress-nginx --repo https:\/\/kubernetes\.github\.io\/ingress-nginx --version 4\.12\.1/,
  );
  assert.match(r.out, /version "4\.12\.1" not found/);
  assert.ok(
    r.calls.some((c) => c.startsWith('kind delete cluster --name tailgate-')),
    'teardown ran',
  );
});

test('kind: a controller that never gets Ready times out with a clear message and the reason from its events', async () => {
  process.env.FAKE_EVENTS =
    '2m  Warning  SysctlForbidden  pod/ingress-nginx-controller-abc  forbidden sysctl: "net.core.somaxconn" not allowlisted';
  try {
    const r = await runWithFakes('kubectl * wait --for=condition=Ready*', {
      message: 'error: timed out waiting for the condition on pods/ingress-nginx-controller-abc',
    });
    assert.equal(r.exit, 4);
    assert.match(r.out, /step failed: wait until ingress-nginx is Ready/);
    assert.match(r.out, /timed out waiting for the condition/);
    assert.match(r.out, /why \(kubectl .*get events --field-selector type=Warning/);
    assert.match(r.out, /SysctlForbidden/);
  } finally {
    delete process.env.FAKE_EVENTS;
  }
});

test('kind: kind missing from PATH says so (exit 127 meaning) and still exits 4', async () => {
  const r = await runWithFakes('kind create*', { code: 127, message: 'kind: not found' });
  assert.equal(r.exit, 4);
  assert.match(r.out, /the command was not found on PATH/);
});

test('gateway routing: a route the Gateway refuses fails at once with its condition; an accepted one passes', async () => {
  const { waitRoute } = await import('../../src/targets/kube/builtins.js');
  const route = (conditions) => ['sh', '-c', `echo '${JSON.stringify({ status: { parents: [{ conditions }] } })}'`];
  await waitRoute(
    route([
      { type: 'Accepted', status: 'True', reason: 'Accepted' },
      { type: 'ResolvedRefs', status: 'True', reason: 'ResolvedRefs' },
    ]),
  );
  const started = Date.now();
  await assert.rejects(
    waitRoute(
      route([
        {
          type: 'Accepted',
          status: 'False',
          reason: 'NotAllowedByListeners',
          message: 'no listener admits routes from namespace tailgate',
        },
      ]),
    ),
    (e) =>
      e.exitCode === 4 &&
      /refused the HTTPRoute: Accepted=False \(NotAllowedByListeners\): no listener admits/.test(e.message),
  );
  assert.ok(Date.now() - started < 5000, 'a refusal is final: no waiting out the timeout');
  await assert.rejects(waitRoute(['sh', '-c', 'echo "{}"'], 1500), /not accepted within 1.5s: no status yet/);
});

test('gateway routing: the dry run shows the CRD install, the HTTPRoute and the waits before load', () => {
  const cwd = process.cwd();
  process.chdir(ROOT);
  try {
    const cfg = loadBench('tools/test/fixtures/kind/bench.yaml');
    golden(
      'dry-run-gateway.sh',
      dryRun(
        planMatrix(cfg, 'e2e-interleave', { controllers: ['traefik-gateway'], scenarios: ['steady'], repetitions: 1 }),
        {},
      ),
    );
  } finally {
    process.chdir(cwd);
  }
});

test('Envoy Gateway: the dry run installs its OCI chart with its own CRDs, then our data plane, and waits for the tuning to reach the Envoy pods', () => {
  const cwd = process.cwd();
  process.chdir(ROOT);
  try {
    const cfg = loadBench('bench.yaml');
    const plan = planMatrix(cfg, 'migration', {
      controllers: ['envoy-gateway'],
      scenarios: ['steady'],
      repetitions: 1,
    });
    const text = dryRun(plan, {});
    golden('dry-run-envoy-gateway.sh', text);
    assert.doesNotMatch(text, /standard-install\.yaml/, 'the chart brings the Gateway API CRDs of its release');
    assert.match(
      text,
      /helm upgrade --install envoy-gateway oci:\/\/docker\.io\/envoyproxy\/gateway-helm --version v1\.9\.1 /,
    );
    const order = [
      'install envoy-gateway',
      'install the backend chart',
      'data plane',
      'is Programmed',
      'rolled its proxy',
      'rollout',
      'is Ready',
      'HTTPRoute is Accepted',
    ];
    const at = order.map((t) => text.indexOf(t));
    assert.ok(
      at.every((i, k) => i > 0 && (k === 0 || i > at[k - 1])),
      `steps in order: ${order.join(' -> ')}`,
    );
  } finally {
    process.chdir(cwd);
  }
});

test('Envoy Gateway on an existing cluster: teardown uninstalls the data plane release before the controller and the backend', () => {
  const cfg = loadBench(join(ROOT, 'bench.yaml'));
  const plan = planMatrix(cfg, 'migration', { controllers: ['envoy-gateway'], scenarios: ['steady'], repetitions: 1 });
  const steps = planSteps(plan, kubeContext({ target: 'cluster', runId: 't', targetUrl: 'http://x', env: {} }));
  assert.deepEqual(
    steps.filter((s) => s.kind === 'teardown').map((s) => s.argv.slice(0, 3).join(' ')),
    ['helm uninstall envoy-gateway-dataplane', 'helm uninstall envoy-gateway', 'helm uninstall backend'],
  );
});

test('Envoy Gateway: offline the plan refuses at once and says why; an Ingress asked of it is a config error', () => {
  const cfg = loadBench(join(ROOT, 'bench.yaml'));
  const plan = planMatrix(cfg, 'migration', { controllers: ['envoy-gateway'], scenarios: ['steady'], repetitions: 1 });
  const ctx = kubeContext({ target: 'kind', runId: 't', env: { TAILGATE_OFFLINE: '1' } });
  assert.throws(
    () => planSteps(plan, ctx),
    (e) => e.exitCode === 2 && /envoy-gateway" cannot run without registries: Envoy's image \(C\+\+\)/.test(e.message),
  );
  assert.throws(
    () => catalogEntry('eg', { type: 'helm', catalog: 'envoy-gateway', routing: 'ingress' }),
    (e) => e.exitCode === 2 && /routes only through Gateway API/.test(e.message),
  );
  assert.equal(catalogEntry('eg', { type: 'helm', catalog: 'envoy-gateway' }).routing, 'gateway');
});

test('runners on kind: the dry run shows the Indexed Job — one segment per completion index, started paused, spread off the ingress node', async () => {
  const { jobManifestFor } = await import('../../src/targets/kube/load-job-manifest.js');
  const job = jobManifestFor(
    {
      script: 'steady',
      rate: 300,
      duration: '12s',
      warmup: '2s',
      payload: '1KiB',
      runners: 2,
      faults: [],
    },
    'k6',
  );
  assert.equal(job.spec.completionMode, 'Indexed');
  assert.deepEqual([job.spec.completions, job.spec.parallelism], [2, 2]);
  const pod = job.spec.template.spec;
  assert.equal(pod.topologySpreadConstraints[0].topologyKey, 'kubernetes.io/hostname');
  assert.deepEqual(
    pod.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions,
    [{ key: 'ingress-ready', operator: 'NotIn', values: ['true'] }],
  );
  const script = pod.containers[0].command[2];
  assert.match(script, /case "\$JOB_COMPLETION_INDEX" in/);
  assert.match(
    script,
    /0\) TG_SUMMARY=\/out\/k6-summary-r1\.json k6 'run' '--paused' .*'--execution-segment' '0:1\/2' '--execution-segment-sequence' '0,1\/2,1'.*json=\/out\/k6-r1\.json\.gz/,
  );
  assert.match(
    script,
    /1\) TG_SUMMARY=\/out\/k6-summary-r2\.json k6 'run' '--paused' .*'--execution-segment' '1\/2:1'/,
  );
  const single = jobManifestFor(
    {
      script: 'steady',
      rate: 300,
      duration: '12s',
      warmup: '2s',
      payload: '1KiB',
      faults: [],
    },
    'k6',
  );
  assert.equal(single.spec.completionMode, undefined, 'one runner: the plain Job as before');
  assert.doesNotMatch(single.spec.template.spec.containers[0].command[2], /--paused/);
  const cwd = process.cwd();
  process.chdir(ROOT);
  try {
    const cfg = loadBench('tools/test/fixtures/kind/bench.yaml');
    golden('dry-run-runners.sh', dryRun(planMatrix(cfg, 'e2e-runners', { repetitions: 1 }), {}));
  } finally {
    process.chdir(cwd);
  }
});

test('offline charts: every controller installs its real chart from the charts folder, sha256 checked before a cluster starts; ingress-nginx and NGINX IC refuse at once, saying why', async () => {
  const { chartsDir } = await import('../../src/registry/chart-archive.js');
  const cfg = loadBench(join(ROOT, 'tools', 'test', 'fixtures', 'kind', 'bench.yaml'));
  const env = { TAILGATE_OFFLINE: '1', TAILGATE_CHARTS_DIR: chartsDir() };
  const plan = planMatrix(cfg, Object.keys(cfg.matrices)[0], {});
  let steps;
  try {
    steps = planSteps(plan, kubeContext({ target: 'kind', runId: 't', env }));
  } catch (err) {
    // This machine has no charts folder: the one line says which archive (the test's point).
    assert.match(err.message, /^offline chart .*\.tgz: (missing|sha256 [0-9a-f]{64}, not the pinned one)/);
    return;
  }
  const installs = steps.filter((s) => s.argv[0] === 'helm' && s.argv.includes('upgrade') && s.argv[3] !== 'backend');
  assert.ok(installs.length);
  for (const s of installs) assert.match(s.argv[4], /^results\/<run>\/charts\/[a-z-]+-[\d.]+\/[a-z-]+$/, s.title);
  const unpack = steps.filter((s) => s.builtin === 'unpackChart');
  assert.ok(unpack.length && unpack.every((s) => /\.tgz$/.test(s.archive)), 'each archive unpacked first');
  assert.ok(!steps.some((s) => s.argv.includes('go')), 'no chart through the Go module proxy');
  // A missing archive: one line, before any step.
  const empty = scratchDir('tg-nocharts-');
  assert.throws(
    () => planSteps(plan, kubeContext({ target: 'kind', runId: 't', env: { ...env, TAILGATE_CHARTS_DIR: empty } })),
    (e) =>
      e.exitCode === 2 &&
      /^offline chart .*\/[a-z-]+-[\d.]+\.tgz: missing; expected .* with sha256 [0-9a-f]{64} \(charts\/controllers\/.*controller\.yaml chart\.sha256\)/.test(
        e.message,
      ),
  );
  for (const [name, why] of [
    ['ingress-nginx', /OpenResty's Lua libraries/],
    ['nginx-ingress', /Go module is not served/],
  ]) {
    const controller = { type: 'helm', chart: catalogEntry(name, { type: 'helm' }).chart };
    const p = { ...plan, cells: plan.cells.slice(0, 1).map((c) => ({ ...c, controllerName: name, controller })) };
    assert.throws(
      () => planSteps(p, kubeContext({ target: 'kind', runId: 't', env })),
      (e) =>
        e.exitCode === 2 &&
        new RegExp(`"${name}" cannot run without registries`).test(e.message) &&
        why.test(e.message),
    );
  }
});

test("a values mistake is one line before any cluster starts: Traefik's schema refuses podAnnotations at the top level (it wants deployment.podAnnotations)", async (t) => {
  const { preflight } = await import('../../src/targets/kube/driver.js');
  const { chartsDir } = await import('../../src/registry/chart-archive.js');
  const cfg = loadBench(join(ROOT, 'tools', 'test', 'fixtures', 'kind', 'bench.yaml'));
  const work = scratchDir('tg-values-');
  const bad = join(work, 'values.yaml');
  writeFileSync(
    bad,
    `${readFileSync(join(ROOT, 'charts/controllers/traefik/values.yaml'), 'utf8')}podAnnotations: { a: b }\n`,
  );
  const plan = planMatrix(cfg, Object.keys(cfg.matrices)[0], {});
  plan.cells = plan.cells
    .filter((c) => c.controllerName === 'traefik')
    .map((c) => ({ ...c, controller: { ...c.controller, valuesFile: bad } }));
  const env = { TAILGATE_OFFLINE: '1', TAILGATE_CHARTS_DIR: chartsDir() };
  let steps;
  try {
    steps = planSteps(plan, kubeContext({ target: 'kind', runId: 't', runDir: join(work, 'run'), env }));
  } catch (err) {
    return t.skip(err.message); // no charts folder here
  }
  const checks = steps.filter((s) => s.kind === 'check');
  assert.ok(checks.length && checks.every((s) => steps.indexOf(s) > 0));
  const created = steps.findIndex((s) => s.kind === 'create');
  await assert.rejects(
    () => preflight(steps),
    (e) =>
      e.exitCode === 2 &&
      /chart traefik [\d.]+ refuses the values of traefik: at '': additional properties 'podAnnotations' not allowed \(values files, in helm's order: .*values\.yaml/.test(
        e.message,
      ) &&
      !e.message.includes('\n'),
  );
  assert.ok(created >= 0 && !steps[created].done, 'no cluster was created');
  // The catalog's own values pass.
  const good = planSteps(
    planMatrix(cfg, Object.keys(cfg.matrices)[0], {}),
    kubeContext({ target: 'kind', runId: 't', runDir: join(work, 'run2'), env }),
  );
  await preflight(good);
});

test('offline: the Gateway API CRDs are read from the Go module cache the context resolved, never from a literal $(go env GOMODCACHE)', async (t) => {
  // What the context resolves (tailgate's own tool lookup and environment), not a second
  // `go env` of the test's: they differ inside a workflow job.
  const { goModCache } = await import('../../src/targets/kube/go-env.js');
  const cache = goModCache();
  if (!cache) return t.skip('go is not installed here');
  // The step builder alone: a whole offline plan also needs the chart archives, which a
  // workflow job's checkout has no shared folder for.
  const { gatewayCrdSteps } = await import('../../src/targets/kube/steps/gateway.js');
  const ctx = kubeContext({ target: 'kind', runId: 't', env: { TAILGATE_OFFLINE: '1' } });
  const crds = gatewayCrdSteps(ctx, (...a) => ['kubectl', ...a]).find((s) => /standard CRDs/.test(s.title));
  assert.ok(crds.argv.at(-1).startsWith(join(cache, 'sigs.k8s.io', 'gateway-api@')), crds.argv.join(' '));
});
