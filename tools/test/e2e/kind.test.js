// End to end on a real kind cluster built offline (../shared/offline-kind): the
// backend chart, Traefik from its locally built image, steady and pod-kill through
// the same run -> ingest -> report code as every other target. Run by make test-kind.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

const ROOT = new URL('../../../', import.meta.url).pathname;
const CLI = join(ROOT, 'tools', 'bin', 'tailgate.js');
const CONFIG = 'tools/test/fixtures/kind/bench.yaml';

// `tailgate run` of a matrix of the kind fixture into a fresh folder: must exit with one
// of `codes` (0: every cell ran; a duet's verdict is its own exit code).
function runMatrix(matrix, codes = [0]) {
  const out = mkdtempSync(join(tmpdir(), `tg-kind-${matrix}-`));
  const run = spawnSync(process.execPath, [CLI, 'run', '--config', CONFIG, '--matrix', matrix, '--out', out], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  console.log(run.stdout, run.stderr);
  assert.ok(codes.includes(run.status), `tailgate run: exit ${run.status}`);
  return { run, runDir: join(out, readdirSync(out)[0]) };
}

function assertNoClusterLeft() {
  const left = spawnSync('kind', ['get', 'clusters'], { encoding: 'utf8' }).stdout;
  assert.ok(!/tailgate-/.test(left), `clusters left: ${left}`);
}

// A cluster a test drives itself (`create`: the kind command that makes it, named
// `name`): `use(kubectl)` gets a kubectl bound to it; deleted in every case, none left.
async function withKindCluster(name, create, use) {
  const made = spawnSync(create[0], create.slice(1), { cwd: ROOT, encoding: 'utf8', timeout: 600_000 });
  try {
    assert.equal(made.status, 0, `${create.join(' ')}\n${made.stderr}`);
    await use((...a) => ['kubectl', '--context', `kind-${name}`, ...a]);
  } finally {
    spawnSync('kind', ['delete', 'cluster', '--name', name], { encoding: 'utf8' });
  }
  assertNoClusterLeft();
}

// The fixture's routes scenario: 6 added, 2 changes of the loaded route, 2 removed, each
// followed within its timeout.
function assertRouteEdits(routes) {
  const e = routes?.edits ?? {};
  const got = JSON.stringify(routes && { ...routes, histogram: undefined });
  assert.equal(e.add?.settled, 6, got);
  assert.equal(e.change?.settled, 2, got);
  assert.equal(e.remove?.settled, 2, got);
  assert.equal(routes.timedOut, 0, got);
  assert.ok(routes.propagationMs.max < 10_000 && routes.propagationMs.p50 > 0, got);
}

// The fixture's 50 carried routes: every one answered, the controller's cost read.
function assertCarried(carried) {
  const got = JSON.stringify(carried);
  assert.equal(carried?.routes, 50, got);
  assert.ok(carried.allAnsweredMs > 0 && carried.allAnsweredMs < 600_000, got);
  assert.ok(carried.cpuSeconds > 0 && carried.rssMiB.after > 0, got);
}

test(
  'kind e2e: traefik, steady and pod-kill from the runner, steady from inside the cluster, Ingress routes added, changed and removed under load',
  { timeout: 20 * 60_000 },
  () => {
    const { runDir } = runMatrix('e2e');
    for (const scenario of ['steady', 'pod-kill', 'inside', 'routes']) {
      const file = join(runDir, 'traefik', 'default', scenario, 'rep-1', 'result.json');
      assert.ok(existsSync(file), `${file} written`);
      const r = JSON.parse(readFileSync(file, 'utf8'));
      assert.equal(r.meta.target, 'kind');
      assert.ok(r.requests.total >= (scenario === 'inside' ? 1400 : 1500), `${scenario}: ${r.requests.total} requests`);
      assert.ok(r.load.droppedRatio < 0.01, `${scenario}: load delivered`);
      assert.ok(r.latency.percentiles.p99 > 0);
      if (scenario === 'pod-kill')
        assert.ok(r.events.filter((e) => e.type === 'pod-killed').length >= 2, 'pods were killed through kubectl');
      if (scenario !== 'pod-kill') assert.equal(r.errors.total, 0, `${scenario}: steady state has no errors`);
      if (scenario === 'inside')
        assert.ok(existsSync(join(runDir, 'traefik', 'default', 'inside', 'rep-1', 'load-job.json')), 'ran as a Job');
      if (scenario === 'routes') {
        // Six new Ingresses, the loaded one switched to the second Service and back, two
        // removed: each followed within its 10 s, and the load saw no error (above).
        assertRouteEdits(r.routes);
        assertCarried(r.carried);
      }
    }
    const report = spawnSync(process.execPath, [CLI, 'report', runDir, '--charts', join(runDir, 'charts')], {
      encoding: 'utf8',
    });
    assert.equal(report.status, 0, report.stderr);
    console.log(report.stdout);
    assert.ok(existsSync(join(runDir, 'charts', 'traefik__default__pod-kill', 'timeline.png')));
    assert.match(
      report.stdout,
      /traefik\/default\/routes, 1 rep\(s\): 6 added: p50 \d+ ms, max \d+ ms, \d+ errors; 2 changed: p50 \d+ ms.*; 2 removed: p50 \d+ ms/,
    );
    assertNoClusterLeft();
  },
);

test(
  'kind e2e: default -> tuned on one cluster (haproxy-ingress; Traefik tuned runs in the duet case)',
  { timeout: 30 * 60_000 },
  () => {
    const started = Date.now();
    const { run, runDir } = runMatrix('e2e-tuning');
    for (const controller of ['haproxy-ingress'])
      for (const tuning of ['default', 'tuned'])
        for (const scenario of ['steady']) {
          const cell = join(runDir, controller, tuning, scenario, 'rep-1');
          const r = JSON.parse(readFileSync(join(cell, 'result.json'), 'utf8'));
          const id = `${controller}/${tuning}/${scenario}`;
          assert.ok(r.requests.total >= 1500, `${id}: ${r.requests.total} requests`);
          assert.ok(r.load.droppedRatio < 0.01, `${id}: load delivered`);
          assert.equal(r.errors.total, 0, `${id}: ${r.errors.total} errors in steady state`);
          assert.ok(existsSync(join(cell, 'proxy')), `${id}: effective configuration captured`);
        }
    // What the tunings changed in the data plane, read from the pods (not the values files).
    // The sysctl preflight read the real kubelet's configuration (no "not checked").
    assert.match(run.stdout, /check that the kubelets allow net\.core\.somaxconn \(set by tuning "tuned"\)/);
    assert.doesNotMatch(run.stdout, /sysctls not checked/);
    // Whole lines: nothing else (kubectl's stderr once slipped in as a "directive").
    assert.match(
      run.stdout,
      /haproxy-ingress\/tuned \(steady\): defaults maxconn \d+ → 8192; global maxconn \d+ → 8192; sysctl net\.core\.somaxconn \d+ → 32768$/m,
    );
    const report = spawnSync(process.execPath, [CLI, 'report', runDir, '--charts', join(runDir, 'charts')], {
      encoding: 'utf8',
    });
    assert.equal(report.status, 0, report.stderr);
    assert.ok(Date.now() - started < 25 * 60_000, "the tuning switch does not wait out helm's 5-minute timeout");
    assertNoClusterLeft();
  },
);

test(
  'kind e2e: migration — Traefik and haproxy-ingress in one cluster, loaded one at a time (interleaved pairs without a cluster per run), pod-kill',
  { timeout: 40 * 60_000 },
  () => {
    const out = mkdtempSync(join(tmpdir(), 'tg-kind-migrate-'));
    const run = spawnSync(
      process.execPath,
      [
        CLI,
        'migrate',
        '--config',
        CONFIG,
        '--matrix',
        'e2e-migration',
        '--from',
        'traefik',
        '--to',
        'haproxy-ingress',
        // The matrix's pod-kill cell only: its steady cell was 4 more runs alone (about
        // 100 s of CI) for what the steady cells of the e2e and tuning cases check.
        '--scenarios',
        'pod-kill',
        '--out',
        out,
      ],
      { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    console.log(run.stdout, run.stderr);
    // 0 no worse, 1 worse, 3 more pairs needed: each is a verdict; 2 and 4 are failures.
    assert.ok([0, 1, 3].includes(run.status), `tailgate migrate: exit ${run.status}`);
    const runDir = join(out, readdirSync(out)[0]);
    const created = run.stdout.match(/create kind cluster/g) ?? [];
    assert.equal(created.length, 1, 'one cluster for both controllers');
    assert.match(run.stdout, /install the head haproxy-ingress-b \(haproxy-ingress\)/);
    // Each repetition's sides in turn, the order swapped every other pair.
    const loaded = [...run.stdout.matchAll(/^ {2}(\S+): (base|head) loaded alone/gm)].map((m) => `${m[1]} ${m[2]}`);
    assert.deepEqual(loaded, [
      'traefik/default/pod-kill/rep-1 base',
      'traefik/default/pod-kill/rep-1 head',
      'traefik/default/pod-kill/rep-2 head',
      'traefik/default/pod-kill/rep-2 base',
    ]);
    const scenario = 'pod-kill';
    for (const rep of [1, 2])
      for (const [side, controller] of [
        ['base', 'traefik'],
        ['head', 'haproxy-ingress'],
      ]) {
        const cell = join('traefik', 'default', scenario, `rep-${rep}`);
        const r = JSON.parse(readFileSync(join(runDir, side, cell, 'result.json'), 'utf8'));
        const got = `${side} ${cell}: ${r.requests.total} requests, dropped ${r.load.droppedRatio}`;
        // Alone on the node: the scenario's rate per side, not twice it through one k6.
        assert.ok(r.requests.total >= 1500 && r.load.droppedRatio < 0.01, got);
        assert.deepEqual(r.meta.alternate, { role: side, controller, tuning: 'default' });
        assert.equal(r.meta.pair, rep);
        assert.equal(r.meta.ab, undefined, 'not a duet: gated as interleaved pairs');
        assert.ok(r.resources?.cpuPer1kRequests > 0, `${got}: its own data plane's CPU`);
        assert.ok(r.events.filter((e) => e.type === 'pod-killed').length >= 2, `${got}: pods were killed`);
      }
    const md = readFileSync(join(runDir, 'migration.md'), 'utf8');
    assert.match(md, /\| scenario \(vs traefik\) \| haproxy-ingress \|/);
    assert.match(md, /\| default\/pod-kill \| (✅|❌|⚠️)/);
    const doc = JSON.parse(readFileSync(join(runDir, 'migration.json'), 'utf8'));
    assert.equal(doc.design, 'alternate');
    assert.match(
      run.stdout,
      /migration verdict: (NO-WORSE|WORSE|INCONCLUSIVE) — is haproxy-ingress no worse than traefik\?/,
    );
    assert.doesNotMatch(run.stdout, /What the head changes in the data plane/, 'two controllers: no data-plane diff');
    assertNoClusterLeft();
  },
);

test(
  'kind e2e: runners: 2 as an Indexed Job on two workers, merged exactly; a runner deleted mid-run makes the cell inconclusive',
  { timeout: 30 * 60_000 },
  async () => {
    const { spawn } = await import('node:child_process');
    const out = mkdtempSync(join(tmpdir(), 'tg-kind-runners-'));
    const child = spawn(
      process.execPath,
      [
        CLI,
        'run',
        '--config',
        'tools/test/fixtures/kind/bench.yaml',
        '--matrix',
        'e2e-runners',
        '--out',
        out,
        '--no-confirm',
      ],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stdout += d));
    const done = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
    // Once rep-1 has its result and rep-2's runners are under load, delete runner 2's pod.
    let deleted = null;
    const kubectl = (...a) => spawnSync('kubectl', a, { encoding: 'utf8' });
    while (!deleted && child.exitCode === null) {
      await new Promise((r) => setTimeout(r, 1000));
      const run = readdirSync(out)[0];
      if (!run || !existsSync(join(out, run, 'traefik', 'default', 'runners2', 'rep-1', 'result.json'))) continue;
      const cluster = spawnSync('kind', ['get', 'clusters'], { encoding: 'utf8' })
        .stdout.split('\n')
        .find((c) => c.startsWith('tailgate-'));
      if (!cluster) continue;
      const ctx = `kind-${cluster}`;
      const pods = kubectl(
        '--context',
        ctx,
        '-n',
        'tailgate',
        'get',
        'pods',
        '-l',
        'job-name=tailgate-load',
        '-o',
        'json',
      );
      const items = pods.status === 0 ? JSON.parse(pods.stdout).items : [];
      const runner2 = items.find(
        (p) =>
          p.metadata.annotations?.['batch.kubernetes.io/job-completion-index'] === '1' &&
          p.status.phase === 'Running' &&
          !p.metadata.deletionTimestamp,
      );
      if (!runner2 || Date.now() - Date.parse(runner2.status.startTime) < 12_000) continue;
      kubectl(
        '--context',
        ctx,
        '-n',
        'tailgate',
        'delete',
        'pod',
        runner2.metadata.name,
        '--grace-period=0',
        '--force',
      );
      deleted = runner2.metadata.name;
    }
    const code = await done;
    console.log(stdout);
    assert.ok(deleted, 'a runner pod was deleted during rep-2');
    const runDir = join(out, readdirSync(out)[0]);
    const cell = join(runDir, 'traefik', 'default', 'runners2');
    const r = JSON.parse(readFileSync(join(cell, 'rep-1', 'result.json'), 'utf8'));
    const runners = r.meta.runners;
    assert.equal(runners.length, 2);
    assert.notEqual(runners[0].node, runners[1].node, 'one runner per worker node');
    assert.ok(
      runners.every((x) => !/control-plane/.test(x.node)),
      'never on the ingress node',
    );
    // Each runner's count is its whole run (warm-up and measured phase), as is wholeRun.
    assert.equal(runners[0].requests + runners[1].requests, r.wholeRun.requests, 'merged count = sum of the runners');
    assert.ok(Math.abs(r.load.achievedRate / 300 - 1) < 0.02, `achieved ${r.load.achievedRate}/s of 300/s`);
    const err = JSON.parse(readFileSync(join(cell, 'rep-2', 'cell-error.json'), 'utf8'));
    assert.equal(err.inconclusive, true);
    assert.match(err.message, /runner 2\/2 \(pod .* on node .*\) disappeared/);
    assert.ok([0, 3, 4].includes(code), `run exit ${code}`);
    assertNoClusterLeft();
  },
);

test(
  "kind e2e: Envoy Gateway's own controller (built here from its module; Envoy itself cannot be) turns the plan's data plane into the Envoy Deployment tailgate expects, through a tuning switch; the sysctl preflight against its real kubelet",
  { timeout: 15 * 60_000 },
  async () => {
    const { planSteps } = await import('../../src/targets/kube/steps/layout.js');
    const { kubeContext } = await import('../../src/targets/kube/context.js');
    const { checkKubeletSysctls } = await import('../../src/targets/kube/sysctls.js');
    const { runStep } = await import('../../src/targets/kube/exec.js');
    const { loadBench } = await import('../../src/config/load.js');
    const { planMatrix } = await import('../../src/plan/plan.js');
    const { chartFromTemplate, upstreamChart } = await import('../helpers/charts.js');
    const { parse } = await import('yaml');
    const entry = parse(readFileSync(join(ROOT, 'charts', 'controllers', 'envoy-gateway', 'controller.yaml'), 'utf8'));
    const image = `localhost/envoy-gateway:${entry.chart.version}`;
    // The plan as on GitHub (online), for a cluster of this machine's node image.
    const ctx = kubeContext({
      target: 'kind',
      runId: 'e2eg',
      env: { TAILGATE_KIND_NODE_IMAGE: process.env.TAILGATE_KIND_NODE_IMAGE ?? '' },
    });
    const plan = planMatrix(loadBench(join(ROOT, 'bench.yaml')), 'migration', {
      controllers: ['envoy-gateway'],
      tunings: ['default', 'tuned'],
      scenarios: ['steady'],
      repetitions: 1,
    });
    const steps = planSteps(plan, ctx);
    // The OCI chart cannot be pulled here: the same release from the Go module, with the
    // controller image built by tools/scripts/build-envoy-gateway-image.sh.
    const chart = chartFromTemplate(
      upstreamChart(entry.upstream),
      { ...entry.upstream.valuesTemplate, set: { GatewayImage: image, GatewayImagePullPolicy: 'Never' } },
      { version: entry.chart.version, appVersion: entry.upstream.version },
    );
    const sh = (argv) => {
      const r = spawnSync(argv[0], argv.slice(1), { cwd: ROOT, encoding: 'utf8', timeout: 360_000 });
      assert.equal(r.status, 0, `${argv.join(' ')}\n${r.stdout}${r.stderr}`);
      return r.stdout;
    };
    const find = (re, from = 0) => {
      const i = steps.findIndex((s, k) => k >= from && re.test(s.title));
      assert.ok(i >= 0, `a step ${re}`);
      return i;
    };
    const selector = steps[find(/has rolled its proxy Deployment/)].argv.at(-2);
    const name = ctx.clusterName('envoy-gateway');
    await withKindCluster(name, steps[find(/^create kind cluster/)].argv, async (kubectl) => {
      const proxy = () =>
        JSON.parse(sh(kubectl('-n', 'tailgate-ingress', 'get', 'deployment', '-l', selector, '-o', 'json'))).items;
      // The sysctl preflight against this real kubelet (its own cluster cost a minute of
      // CI): the allowed sysctl passes from configz, one it does not allow fails at once.
      const log = [];
      await checkKubeletSysctls(kubectl, ['net.core.somaxconn'], { tuning: 'tuned', log: (m) => log.push(m) });
      assert.deepEqual(log, [], 'configz was read, not skipped');
      const started = Date.now();
      await assert.rejects(
        checkKubeletSysctls(kubectl, ['net.ipv4.tcp_max_syn_backlog'], { tuning: 'x' }),
        (e) => e.exitCode === 4 && /net\.ipv4\.tcp_max_syn_backlog .* does not allow/.test(e.message),
      );
      assert.ok(Date.now() - started < 30_000, 'seconds, not a rollout timeout');
      sh(['kind', 'load', 'docker-image', image, '--name', name]);
      let at = 0;
      for (const tuning of ['default', 'tuned']) {
        const sysctls = steps.find((s) => s.builtin === 'checkSysctls' && s.tuning === tuning);
        if (sysctls) await checkKubeletSysctls(kubectl, sysctls.sysctls, { tuning });
        const install = steps[(at = find(new RegExp(`^install envoy-gateway .*tuning "${tuning}"`), at))];
        const i = install.argv.indexOf('oci://docker.io/envoyproxy/gateway-helm');
        sh([...install.argv.slice(0, i), chart, ...install.argv.slice(i + 3)]);
        sh(steps[(at = find(new RegExp(`data plane .*tuning "${tuning}"`), at))].argv);
        sh(kubectl('wait', '--for=condition=Accepted', 'gatewayclass/tailgate-envoy', '--timeout=60s'));
        // The planned wait, run as a real run runs it (asked again while Envoy Gateway has
        // not made the Deployment yet): it has rendered this tuning into the Deployment.
        await runStep(steps[(at = find(new RegExp(`rolled its proxy Deployment to tuning "${tuning}"`), at))]);
        const [d, ...more] = proxy();
        assert.equal(more.length, 0, 'one Envoy Deployment for the Gateway');
        const pod = d.spec.template.spec;
        assert.equal(d.spec.template.metadata.labels['tailgate-tuning'], tuning);
        assert.deepEqual(d.spec.strategy.rollingUpdate, { maxSurge: 0, maxUnavailable: 1 });
        assert.equal(pod.nodeSelector['ingress-ready'], 'true');
        const ports = pod.containers.find((c) => c.name === 'envoy').ports;
        assert.deepEqual(
          ports.filter((p) => p.hostPort).map((p) => [p.containerPort, p.hostPort]),
          [[10080, 80]],
        );
        assert.deepEqual(
          pod.securityContext?.sysctls ?? [],
          tuning === 'tuned' ? [{ name: 'net.core.somaxconn', value: '32768' }] : [],
        );
      }
      // A wait for a tuning the Deployment no longer carries keeps waiting (then fails).
      const stale = steps[find(/rolled its proxy Deployment to tuning "default"/)].argv.map((a) =>
        a.startsWith('--timeout=') ? '--timeout=5s' : a,
      );
      assert.notEqual(spawnSync(stale[0], stale.slice(1), { encoding: 'utf8' }).status, 0);
      // The kubelet accepted the tuned pod's sysctl: its pods fail only on pulling Envoy.
      const events = sh(kubectl('-n', 'tailgate-ingress', 'get', 'events', '-o', 'jsonpath={.items[*].reason}'));
      assert.doesNotMatch(events, /SysctlForbidden/);
    });
  },
);

test(
  'kind e2e: a duet — Traefik default and tuned as two releases in one cluster routed through Gateway API, the same pods, the same load; pod-kill hits both at once',
  { timeout: 20 * 60_000 },
  () => {
    // 1 = the duet's own verdict (a regression) is an outcome, not a failure of the run.
    const { run, runDir } = runMatrix('e2e-duet', [0, 1, 3]);
    assert.match(run.stdout, /install the head traefik-gateway-b \(traefik-gateway\) .* with tuning "tuned"/);
    assert.match(run.stdout, /wait until Gateway traefik-gateway-b is Programmed/);
    assert.match(
      run.stdout,
      /wait until the HTTPRoute backend-traefik-gateway-b is Accepted by Gateway traefik-gateway-b/,
    );
    assert.match(run.stdout, /wait until the head's ingress routes to the backend/);
    assert.match(
      run.stdout,
      /What the head changes in the data plane .*--serversTransport\.maxIdleConnsPerHost \(not set\) → 320; sysctl net\.core\.somaxconn \(not set\) → 32768$/m,
    );
    for (const scenario of ['steady', 'pod-kill', 'routes'])
      for (const rep of [1, 2]) {
        const cell = join('traefik-gateway', 'default', scenario, `rep-${rep}`);
        const [base, head] = ['base', 'head'].map((side) =>
          JSON.parse(readFileSync(join(runDir, side, cell, 'result.json'), 'utf8')),
        );
        for (const [r, who] of [
          [base, 'base'],
          [head, 'head'],
        ]) {
          assert.ok(r.requests.total >= 1500, `${cell} ${who}: ${r.requests.total} requests (200/s per side)`);
          assert.ok(r.load.droppedRatio < 0.01, `${cell} ${who}: load delivered`);
        }
        assert.equal(head.meta.ab.tuning, 'tuned');
        assert.equal(base.meta.ab.tuning, 'default');
        // The same fault events on both timelines: one schedule, one backend, both sides.
        assert.deepEqual(
          head.events.map((e) => [e.type, e.ts]),
          base.events.map((e) => [e.type, e.ts]),
        );
        if (scenario === 'pod-kill')
          assert.ok(base.events.filter((e) => e.type === 'pod-killed').length >= 2, 'pods were killed');
        // The same edits on both sides, each side's own HTTPRoutes on its own Gateway.
        if (scenario === 'routes')
          for (const r of [base, head]) {
            assertRouteEdits(r.routes);
            assertCarried(r.carried);
          }
        // Each side's data plane captured before load: base plain, head with the tuning.
        const raw = join(runDir, 'raw', cell);
        const args = (d) => readFileSync(join(raw, d, 'traefik-args.txt'), 'utf8');
        assert.match(args('proxy'), /--providers\.kubernetesingress\.ingressClass=traefik$/m);
        assert.match(args('proxy-b'), /--providers\.kubernetesingress\.ingressClass=traefik-b$/m);
        // Each side serves its own GatewayClass only (Traefik's controllerName is shared).
        assert.match(args('proxy'), /--providers\.kubernetesgateway\.labelSelector=tailgate\.dev\/duet-side=a$/m);
        assert.match(args('proxy-b'), /--providers\.kubernetesgateway\.labelSelector=tailgate\.dev\/duet-side=b$/m);
        assert.match(args('proxy-b'), /maxIdleConnsPerHost=320/);
        assert.doesNotMatch(args('proxy'), /maxIdleConnsPerHost/);
      }
    assert.ok(existsSync(join(runDir, 'verdict.json')) && existsSync(join(runDir, 'comment.md')));
    // The route cell is gated on propagation as on latency, and the comment shows it.
    const verdict = JSON.parse(readFileSync(join(runDir, 'verdict.json'), 'utf8'));
    const routed = verdict.cells.find((c) => c.cell === 'traefik-gateway/default/routes');
    assert.ok(
      routed.metrics.some((m) => m.metric === 'propagation p50' && m.design === 'concurrent'),
      JSON.stringify(routed.metrics.map((m) => m.metric)),
    );
    assert.match(readFileSync(join(runDir, 'comment.md'), 'utf8'), /Routes under load/);
    assertNoClusterLeft();
  },
);
