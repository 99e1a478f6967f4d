// Fairness from the pod, not the container (issue 67, item 4): whether a PR's duet shares
// the node alike is decided from what the scheduler and the kubelet decide from — each
// side's pods' effective requests and limits (every container; init containers as the
// kubelet counts them, the largest init beside the sum of the containers; sidecars, the
// restartable init containers, added; the namespace's LimitRange defaults), QoS class,
// priority, placement and runtime — whatever the kind or the name of the workload that owns
// them. A difference that cannot be read is unfair, and the log names the difference.
// Held out: the rule compared the proxy containers of workloads both sides rendered under one
// kind and name, so a head that took more of the node through its namespace's defaults, an
// init or sidecar container, or a workload of another kind or name stayed a duet in silence.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stringify } from 'yaml';
import { oneAtATime } from '../../src/targets/kube/one-at-a-time.js';

const NS = { base: 'tailgate-ingress', head: 'tailgate-ingress-b' };
const RELEASE = { base: 'traefik', head: 'traefik-b' };

// One side's helm template output: the proxy Deployment (as Traefik's chart writes it) and
// whatever else the case adds, `extra(release, namespace)` -> more documents.
function rendered(side, { pod = {}, proxy = {}, kind = 'Deployment', name, extra = () => [] } = {}) {
  const release = RELEASE[side];
  const namespace = NS[side];
  const spec = {
    ...pod,
    containers: [{ name: 'traefik', image: 'docker.io/traefik:v3.6.12', ...proxy }, ...(pod.containers ?? [])],
  };
  const workload = {
    apiVersion: 'apps/v1',
    kind,
    metadata: { name: name ? name(release) : release, namespace },
    spec: { ...(kind === 'DaemonSet' ? {} : { replicas: 1 }), template: { metadata: { labels: {} }, spec } },
  };
  return [
    stringify({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: release, namespace } }),
    ...(kind ? [stringify(workload)] : []),
    ...extra(release, namespace).map((d) => (typeof d === 'string' ? d : stringify(d))),
  ]
    .map((d) => `---\n${d}`)
    .join('\n');
}

// A PR duet's cells after the values check rendered both releases (the driver's preflight).
function decide(baseOpts, headOpts) {
  const cells = [1, 2, 3].map((rep) => ({
    key: 'traefik/default/steady',
    id: `traefik/default/steady/rep-${rep}`,
    controllerName: 'traefik',
    tuningName: 'default',
    scenarioName: 'steady',
    scenario: { faults: [] },
    repetition: rep,
    concurrent: { name: 'traefik', tuningName: 'default' },
  }));
  const plan = { matrixName: 'pr', cells, prDuet: true };
  const steps = ['base', 'head'].map((side) => ({
    kind: 'check',
    release: RELEASE[side],
    tuning: 'default',
    namespace: NS[side],
    rendered: rendered(side, side === 'base' ? baseOpts : headOpts),
  }));
  const log = [];
  oneAtATime(plan, steps, (l) => log.push(l));
  return { unfair: plan.cells.every((c) => c.alternate), why: plan.cells[0].oneAtATime ?? null, log: log.join('\n') };
}

const cpu = (request, limit) => ({
  resources: { requests: { cpu: request }, ...(limit ? { limits: { cpu: limit } } : {}) },
});

test('fairness from the pod: two releases alike are a duet (the control)', () => {
  const v = decide({ proxy: cpu('100m') }, { proxy: cpu('0.1') });
  assert.equal(v.unfair, false, v.log);
});

test("fairness from the pod: the namespace's LimitRange defaults give the head's pods a request the base's lack", () => {
  const limitRange = (release, namespace) => [
    {
      apiVersion: 'v1',
      kind: 'LimitRange',
      metadata: { name: `${release}-defaults`, namespace },
      spec: { limits: [{ type: 'Container', defaultRequest: { cpu: '500m' }, default: { cpu: '1' } }] },
    },
  ];
  const v = decide({}, { extra: limitRange });
  assert.equal(v.unfair, true, v.log);
  assert.match(v.why, /CPU request/);
  assert.match(v.log, /500m/, 'the log names the difference');
  // A default limit alone defaults the request too (the API's LimitRange defaulting).
  const limitOnly = (release, namespace) => [
    {
      apiVersion: 'v1',
      kind: 'LimitRange',
      metadata: { name: 'defaults', namespace },
      spec: { limits: [{ type: 'Container', default: { cpu: '250m' } }] },
    },
  ];
  const w = decide({ proxy: cpu('250m', '250m') }, { extra: limitOnly });
  assert.equal(w.unfair, false, `the LimitRange gives the head exactly the base's 250m: ${w.log}`);
});

test('fairness from the pod: an init container counts as the kubelet counts it — the largest init beside the sum of the containers', () => {
  const init = (request) => ({ initContainers: [{ name: 'warm', image: 'busybox', ...cpu(request) }] });
  const big = decide({ proxy: cpu('100m') }, { proxy: cpu('100m'), pod: init('2') });
  assert.equal(big.unfair, true, big.log);
  assert.match(big.log, /requests\.cpu/);
  assert.match(big.log, /2\b/);
  // An init container below the containers' sum changes nothing the scheduler sees.
  const small = decide({ proxy: cpu('300m') }, { proxy: cpu('300m'), pod: init('200m') });
  assert.equal(small.unfair, false, small.log);
});

test('fairness from the pod: a sidecar — another container, or a restartable init container — adds its request', () => {
  const sidecar = { containers: [{ name: 'log-shipper', image: 'fluent-bit', ...cpu('300m') }] };
  const v = decide({ proxy: cpu('100m') }, { proxy: cpu('100m'), pod: sidecar });
  assert.equal(v.unfair, true, v.log);
  assert.match(v.log, /100m → 400m|0\.1 → 0\.4/);
  const native = {
    initContainers: [{ name: 'mesh', image: 'envoy', restartPolicy: 'Always', ...cpu('250m') }],
  };
  const w = decide({ proxy: cpu('100m') }, { proxy: cpu('100m'), pod: native });
  assert.equal(w.unfair, true, w.log);
  assert.match(w.log, /350m/);
});

test('fairness from the pod: whatever the kind or the name of the workload that owns the pods', () => {
  // Renamed: its CPU request doubled under another name.
  const renamed = decide({ proxy: cpu('100m') }, { proxy: cpu('200m'), name: (r) => `${r}-proxy` });
  assert.equal(renamed.unfair, true, renamed.log);
  // Another kind: a ReplicaSet (or a bare Pod, a Job …) with a priority class.
  const rs = decide(
    { proxy: cpu('100m') },
    { proxy: cpu('100m'), kind: 'ReplicaSet', pod: { priorityClassName: 'high' } },
  );
  assert.equal(rs.unfair, true, rs.log);
  assert.match(rs.why, /priority/);
  // One more workload of the head's, its pods on the same node.
  const more = (release, namespace) => [
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: `${release}-warmer`, namespace },
      spec: { containers: [{ name: 'w', image: 'busybox', ...cpu('500m') }] },
    },
  ];
  const extra = decide({ proxy: cpu('100m') }, { proxy: cpu('100m'), extra: more });
  assert.equal(extra.unfair, true, extra.log);
  assert.match(extra.log, /warmer|Pod/);
  // Placement and runtime on a renamed workload too.
  const placed = decide({}, { name: (r) => `${r}-x`, pod: { runtimeClassName: 'gvisor' } });
  assert.equal(placed.unfair, true, placed.log);
  assert.match(placed.why, /runtime/);
});

test('fairness from the pod: a difference that cannot be read is unfair, and named', () => {
  const cut = () => ['kind: Deployment\nspec: [unclosed'];
  const v = decide({}, { extra: cut });
  assert.equal(v.unfair, true, v.log);
  assert.match(v.log, /cannot be read|not read/);
  // No pods on the head where the base has them: nothing read is no duet.
  const none = decide({}, { kind: null });
  assert.equal(none.unfair, true, none.log);
});
