// Duets on kind: the head's controller as a second release in the same cluster. Plans
// only (the real run is the kind e2e): what is installed where, the k6 command with both
// URLs, and when a PR's base and head cannot run side by side.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadBench } from '../../src/config/load.js';
import { planMatrix } from '../../src/plan/plan.js';
import { duetRefusal } from '../../src/plan/duet.js';
import { planSteps } from '../../src/targets/kube/steps/layout.js';
import { kubeContext } from '../../src/targets/kube/context.js';
import { scratchDir } from '../helpers/scratch.js';

const ROOT = new URL('../../../', import.meta.url).pathname;
const FIXTURE = join(ROOT, 'tools', 'test', 'fixtures', 'kind', 'bench.yaml');
const PR_DUET = `  pr-duet: { target: kind, profile: kind-offline, controllers: [traefik, haproxy-ingress], tunings: [default, tuned], scenarios: [steady], compare: concurrent }\n`;

function checkouts(edit = (s) => s) {
  const root = scratchDir('tg-duet-');
  mkdirSync(join(root, 'base'));
  const text = readFileSync(FIXTURE, 'utf8') + PR_DUET;
  writeFileSync(join(root, 'base', 'bench.yaml'), text);
  writeFileSync(join(root, 'bench.yaml'), edit(text));
  cpSync(join(ROOT, 'charts', 'controllers', 'traefik', 'values.yaml'), join(root, 'traefik-head.yaml'));
  return { base: loadBench(join(root, 'base', 'bench.yaml')), head: () => loadBench(join(root, 'bench.yaml')), root };
}

const steps = (plan) =>
  // Online: the plan names each chart by its repository, so no chart archive is needed here.
  planSteps(plan, kubeContext({ target: 'kind', runId: 'x', runDir: '/tmp/r', env: {} }));

test('duet: --ab-head on kind installs the head as <controller>-b in its own namespace, both routed, k6 alternating at the rate per side', () => {
  const cfg = loadBench(FIXTURE);
  // The Ingress duet (the fixture's matrix routes through Gateway API).
  const plan = planMatrix(cfg, 'e2e-duet', { controllers: ['traefik'], abHead: 'traefik:tuned' });
  const s = steps(plan);
  const argv = (re) => s.filter((x) => re.test(x.title)).map((x) => x.argv.join(' '));
  assert.match(argv(/write the kind config/)[0], / 81:18081$/);
  assert.match(
    argv(/install the backend/)[0],
    /ingress\.className=traefik --set ingress\.extraClassNames=\{traefik-b\}/,
  );
  const [base, head] = argv(/^install (traefik|the head)/);
  assert.match(base, /^helm upgrade --install traefik .* -n tailgate-ingress .*duet-a\.yaml/);
  assert.doesNotMatch(base, /overlays\/tuned/);
  assert.match(
    head,
    /^helm upgrade --install traefik-b .* -n tailgate-ingress-b .*overlays\/tuned\.yaml -f \S*duet-b\.yaml/,
  );
  assert.equal(argv(/install the head/).length, 1, 'the head is installed once for a fixed head tuning');
  const measure = s.find((x) => x.kind === 'measure');
  assert.equal(measure.urlB, 'http://127.0.0.1:18081');
  assert.equal(measure.env.TG_TARGET_URL_B, 'http://127.0.0.1:18081');
  assert.equal(measure.env.TG_RATE, '400', '200/s per side');
  assert.equal(s.filter((x) => /routes to the backend/.test(x.title)).length, 2 * plan.cells.length);
});

test("duet: canaries reach only the backend — the head's route delays or fails its share, the background share on both", () => {
  const { head } = checkouts(
    (t) =>
      t.replace(
        '  steady: {',
        '  canary: { headDelay: 2ms, headErrors: 0.3%, backendErrors: 0.1%, script: steady, rate: 200, duration: 10s, replicas: 2 }\n  steady: {',
      ) +
      '  canary: { target: kind, profile: kind-offline, controllers: [traefik], scenarios: [canary], compare: concurrent, head: traefik:default }\n',
  );
  const s = steps(planMatrix(head(), 'canary', {}));
  const backend = s.find((x) => /install the backend/.test(x.title)).argv.join(' ');
  assert.match(
    backend,
    /--set ingress\.extraClassDelayMs=2 --set ingress\.extraClassErrorPercent=0\.3 --set errorPercent=0\.1 --set lua\.enabled=true/,
  );
  const solo = s.filter((x) => /^install traefik /.test(x.title)).map((x) => x.argv.join(' '));
  assert.ok(
    solo.every((a) => !/ErrorPercent|errorPercent/.test(a)),
    'nothing of it on the controllers',
  );
});

test("duet: a canary is the whole matrix's — a scenario beside it without the canary is refused, naming both and the key", () => {
  const { head } = checkouts(
    (t) =>
      t.replace(
        '  steady: {',
        '  canary: { headDelay: 4ms, headDelayShare: 25%, script: steady, rate: 200, duration: 10s, replicas: 2 }\n  steady: {',
      ) +
      '  mixed: { target: kind, profile: kind-offline, controllers: [traefik], scenarios: [canary, steady], compare: concurrent, head: traefik:default }\n',
  );
  assert.throws(head, (e) => {
    const text = [e.message, ...(e.details ?? [])].join('\n');
    assert.match(text, /matrices\.mixed\.scenarios/);
    assert.match(text, /"canary" and "steady" differ in headDelay \(4ms vs none\)/);
    assert.match(text, /give the canary a matrix of its own/);
    return true;
  });
});

test("duet: a PR's duet installs each cell's controller from the base checkout's values beside the head's, per tuning", () => {
  const { base, head } = checkouts((t) =>
    t.replace('  traefik:\n    type: helm\n', '  traefik:\n    type: helm\n    values: traefik-head.yaml\n'),
  );
  const plan = planMatrix(head(), 'pr-duet', { controllers: ['traefik'], duetBase: base });
  const installs = steps(plan)
    .filter((x) => /^install (traefik|haproxy|the head)/.test(x.title))
    .map((x) => x.argv.join(' '));
  const traefik = installs.filter((a) => /--install traefik/.test(a));
  assert.equal(traefik.length, 4, 'base and head for default and tuned');
  assert.match(traefik[1], /--install traefik-b .*traefik-head\.yaml/);
  assert.doesNotMatch(traefik[0], /traefik-head\.yaml/);
  assert.match(traefik[3], /--install traefik-b .*traefik-head\.yaml .*overlays\/tuned\.yaml/);
});

test("duet: a PR's duet looks at its pairs by the base's gate, the rules the verdict of record applies", () => {
  const { base, head } = checkouts((t) =>
    t.replace('compare: concurrent }', 'compare: concurrent, gate: { latency: { p99: { threshold: 50% } } } }'),
  );
  const h = head();
  assert.equal(h.matrices['pr-duet'].gate.latency.p99.threshold, '50%', 'the head loosens its own line');
  const plan = planMatrix(h, 'pr-duet', { controllers: ['traefik'], duetBase: base });
  assert.deepEqual(plan.gateOfRecord, base.matrices['pr-duet'].gate);
  assert.notEqual(plan.gateOfRecord.latency.p99.threshold, '50%');
});

test('duet: Ingress beside Gateway API (a migration) — each side routes its own way to the same pods, the CRDs installed, the head route Accepted before load', () => {
  const cfg = loadBench(FIXTURE);
  const argvOf = (s, re) => s.filter((x) => re.test(x.title)).map((x) => x.argv.join(' '));
  // Base through Ingress, head through Gateway API.
  let s = steps(planMatrix(cfg, 'e2e-duet', { controllers: ['traefik'], abHead: 'traefik-gateway' }));
  let [backend] = argvOf(s, /^install the backend chart/);
  assert.match(backend, /--set ingress\.className=traefik /);
  assert.doesNotMatch(backend, /extraClassNames/, 'the head serves no Ingress');
  assert.match(
    backend,
    /httpRoute\.extraGateways\[0\]\.name=traefik-gateway-b .*httpRoute\.enabled=true --set httpRoute\.gatewayName= /,
  );
  assert.ok(
    s.some((x) => /Gateway API CRDs|gateway-api/i.test(x.title)),
    'the CRDs for the head route',
  );
  const [base, headInstall] = argvOf(s, /^install (traefik 41|the head traefik-gateway-b)/);
  assert.doesNotMatch(base, /gateway/, 'the base release has no Gateway provider');
  assert.match(headInstall, /gateway\.yaml .*duet-b\.yaml .*duet-gateway-b\.yaml/);
  assert.ok(
    s.some((x) => /HTTPRoute backend-traefik-gateway-b is Accepted by Gateway traefik-gateway-b/.test(x.title)),
  );
  // And back: base through Gateway API, head through Ingress.
  s = steps(planMatrix(cfg, 'e2e-duet', { controllers: ['traefik-gateway'], abHead: 'traefik' }));
  [backend] = argvOf(s, /^install the backend chart/);
  assert.match(backend, /--set ingress\.className= --set ingress\.extraClassNames=\{traefik-b\}/);
  assert.match(backend, /httpRoute\.enabled=true --set httpRoute\.gatewayName=traefik-gateway /);
  assert.doesNotMatch(backend, /extraGateways/);
});

test('duet: Gateway API routing — each side its own GatewayClass (by label) and Gateway, a route each, both Programmed and Accepted before load', () => {
  const plan = planMatrix(loadBench(FIXTURE), 'e2e-duet', {
    controllers: ['traefik-gateway'],
    abHead: 'traefik-gateway:tuned',
  });
  const s = steps(plan);
  const argv = (re) => s.filter((x) => re.test(x.title)).map((x) => x.argv.join(' '));
  const [base] = argv(/^install traefik-gateway /);
  assert.match(
    base,
    /-f charts\/controllers\/traefik\/gateway\.yaml .*-f charts\/controllers\/traefik\/duet-a\.yaml -f charts\/controllers\/traefik\/duet-gateway-a\.yaml/,
  );
  assert.match(base, /-n tailgate-ingress /);
  const [head] = argv(/^install the head traefik-gateway-b/);
  assert.match(
    head,
    /-n tailgate-ingress-b .*-f charts\/controllers\/traefik\/duet-b\.yaml -f charts\/controllers\/traefik\/duet-gateway-b\.yaml/,
  );
  assert.match(
    argv(/install the backend/)[0],
    /--set httpRoute\.extraGateways\[0\]\.name=traefik-gateway-b --set httpRoute\.extraGateways\[0\]\.namespace=tailgate-ingress-b .*--set httpRoute\.gatewayName=traefik-gateway --set httpRoute\.gatewayNamespace=tailgate-ingress/,
  );
  assert.deepEqual(argv(/is Programmed/), [
    'kubectl --context kind-tailgate-x-traefik-gateway wait --for=condition=Programmed -n tailgate-ingress gateway/traefik-gateway --timeout=120s',
    'kubectl --context kind-tailgate-x-traefik-gateway wait --for=condition=Programmed -n tailgate-ingress-b gateway/traefik-gateway-b --timeout=120s',
  ]);
  const routes = s.filter((x) => x.builtin === 'waitRoute').map((x) => x.getArgv.join(' '));
  assert.ok(
    routes.some((r) => / get httproute backend -o json$/.test(r)),
    routes.join('\n'),
  );
  assert.ok(
    routes.some((r) => / get httproute backend-traefik-gateway-b -o json$/.test(r)),
    routes.join('\n'),
  );
  // The head's route is awaited after the head is installed, before any load.
  const at = (re) => s.findIndex((x) => re.test(x.title));
  assert.ok(at(/HTTPRoute backend-traefik-gateway-b is Accepted/) > at(/^install the head/));
  assert.ok(at(/HTTPRoute backend-traefik-gateway-b is Accepted/) < s.findIndex((x) => x.kind === 'measure'));
});

test('duet: what a PR changes that cannot run side by side falls back to interleaved pairs, with why', () => {
  const { base, head } = checkouts();
  assert.equal(duetRefusal(base, head(), 'pr-duet'), null);
  const cases = [
    [
      (t) =>
        t.replace(
          'tunings: [default, tuned], scenarios: [steady], compare',
          'tunings: [default], scenarios: [steady], compare',
        ),
      /the matrix's tunings change/,
    ],
    [
      (t) =>
        t.replace(
          'pr-duet: { target: kind, profile: kind-offline, controllers: [traefik, haproxy-ingress]',
          'pr-duet: { target: kind, profile: kind-offline, controllers: [traefik, traefik-gateway]',
        ),
      /controllers change/,
    ],
  ];
  for (const [edit, why] of cases) assert.match(duetRefusal(base, checkouts(edit).head(), 'pr-duet'), why);
});

test("duet: a PR that changes a scenario stays a duet — both sides run the head's workload — and says what it changes", () => {
  const { base } = checkouts();
  const head = checkouts((t) =>
    t.replace('steady: { script: steady, rate: 200', 'steady: { script: steady, rate: 300'),
  ).head();
  assert.equal(duetRefusal(base, head, 'pr-duet'), null);
  const plan = planMatrix(head, 'pr-duet', { duetBase: base });
  assert.deepEqual(plan.workloadChange, ['scenario "steady": rate 200 → 300']);
  assert.ok(
    plan.cells.every((c) => c.scenario.rate === 300 && c.concurrent),
    "one k6, the head's rate, both sides",
  );
});

test("alternate: the duet's two releases in one cluster, loaded one side at a time at the rate per side; refused where it cannot hold", () => {
  const cfg = loadBench(FIXTURE);
  const plan = planMatrix(cfg, 'e2e-migration', { abHead: 'haproxy-ingress', alternate: true });
  assert.equal(plan.alternate, true);
  const s = steps(plan);
  assert.equal(s.filter((x) => x.kind === 'create').length, 1, 'one cluster for both controllers');
  assert.equal(s.filter((x) => /^install the head haproxy-ingress-b/.test(x.title)).length, 1);
  const measures = s.filter((x) => x.kind === 'measure');
  assert.equal(measures.length, plan.cells.length);
  for (const m of measures) {
    assert.equal(m.env.TG_RATE, '200', 'each side alone at the scenario rate');
    assert.equal(m.env.TG_TARGET_URL_B, undefined, 'one ingress per k6 run');
    assert.match(m.title, m.cell.repetition % 2 ? /base then head/ : /head then base/);
  }
  // Where alternate cannot run: no duet, another target, route edits under load.
  // The flag lands on the matrix before validation (config/overrides.js), which names it.
  assert.throws(
    () => planMatrix(cfg, 'e2e-migration', { alternate: true }),
    (err) =>
      err.details.some((d) =>
        / with --alternate: matrices\.e2e-migration\.alternate: alternates the sides of a duet/.test(d),
      ),
  );
  assert.throws(
    () => planMatrix(cfg, 'e2e', { abHead: 'haproxy-ingress', alternate: true, scenarios: ['routes'] }),
    /scenario "routes" edits routes under load/,
  );
});
