// A duet only where the two sides share the node fairly (issue 60): each difference class
// of targets/kube/duet-fairness.js on pod templates shaped as helm template writes them
// (Traefik's Deployment, two releases: traefik in tailgate-ingress, traefik-b in
// tailgate-ingress-b), then the driver's decision (one-at-a-time.js), the sequential
// budget it keeps and the comment's line.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { stringify } from 'yaml';
import {
  duetFairness,
  hostNamespaces,
  placement,
  podTemplates,
  priority,
  qos,
  qosClass,
  quantity,
  replicas,
  resources,
  runtime,
  sysctls,
} from '../../src/targets/kube/duet-fairness.js';
import { oneAtATime } from '../../src/targets/kube/one-at-a-time.js';
import { sequence } from '../../src/run/sequence.js';
import { oneAtATimeCells, readOneAtATime } from '../../src/result/duet-change.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { scratchDir } from '../helpers/scratch.js';

const WHY = "a duet would measure the two sides' share of the node";

// helm template output of one release: a ServiceAccount, the Deployment, a Service.
function rendered({ release = 'traefik', namespace = 'tailgate-ingress', pod = {}, replicas: n = 1 } = {}) {
  const container = {
    name: 'traefik',
    image: 'docker.io/traefik:v3.6.12',
    args: [`--providers.kubernetesingress.ingressclass=${release}`],
  };
  const deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: release, namespace, labels: { 'app.kubernetes.io/instance': `${release}-${namespace}` } },
    spec: {
      replicas: n,
      template: {
        metadata: { labels: { 'app.kubernetes.io/name': 'traefik' } },
        spec: {
          ...pod,
          containers: [{ ...container, ...(pod.resources ? { resources: pod.resources } : {}) }],
          resources: undefined,
        },
      },
    },
  };
  delete deployment.spec.template.spec.resources;
  return [
    '---\n# Source: traefik/templates/rbac/serviceaccount.yaml',
    stringify({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: release, namespace } }),
    '---\n# Source: traefik/templates/deployment.yaml',
    stringify(deployment),
    '---\n# Source: traefik/templates/service.yaml',
    stringify({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: release, namespace },
      spec: { type: 'ClusterIP' },
    }),
  ].join('\n');
}
const base = (o = {}) => podTemplates(rendered(o), { release: 'traefik', namespace: 'tailgate-ingress' });
const head = (o = {}) =>
  podTemplates(rendered({ ...o, release: 'traefik-b', namespace: 'tailgate-ingress-b' }), {
    release: 'traefik-b',
    namespace: 'tailgate-ingress-b',
  });
const CPU300 = { resources: { requests: { cpu: '300m' }, limits: { cpu: '300m' } } };

test('podTemplates: the workloads of helm template output, release and namespace as placeholders', () => {
  const b = base();
  const h = head();
  assert.deepEqual([...b.keys()], ['Deployment/<release>']);
  assert.deepEqual([...h.keys()], ['Deployment/<release>']);
  // A cut document is no pod and no error: it is named as what cannot be read (a
  // difference the other side lacks is unfair: fairness-from-pod.test.js).
  const cut = podTemplates(`${rendered()}\n---\nkind: Deployment\nspec: [unclosed`, { release: 'traefik' });
  assert.equal(cut.size, 1);
  assert.equal(cut.unreadable.length, 1);
  // Two releases that differ only in their duet plumbing (class, names) are one workload.
  assert.deepEqual(duetFairness(b, h), { unfair: [], fair: [], why: null });
});

test('resources (issue 60): the head that removes a 300m CPU request and limit is unfair; so is the one that adds it', () => {
  const removal = duetFairness(base({ pod: CPU300 }), head());
  assert.deepEqual(
    removal.unfair.map((d) => `${d.class} ${d.what} ${d.base} → ${d.head}`),
    [
      'resources requests.cpu 300m → (not set)',
      'resources limits.cpu 300m → (not set)',
      'qos QoS class Burstable → BestEffort',
    ],
  );
  assert.equal(
    removal.why,
    `the head changes its CPU request and limit and its QoS class (Burstable → BestEffort): ${WHY}`,
  );
  const adding = duetFairness(base(), head({ pod: { resources: { requests: { cpu: '300m' } } } }));
  assert.equal(adding.why, `the head changes its CPU request and its QoS class (BestEffort → Burstable): ${WHY}`);
  // Memory too; and a quantity written another way is the same quantity.
  assert.deepEqual(
    resources(
      { containers: [{ name: 'p', resources: { limits: { memory: '1Gi' } } }] },
      { containers: [{ name: 'p' }] },
    ).map((d) => d.what),
    ['requests.memory', 'limits.memory'],
  );
  assert.equal(quantity('0.3'), quantity('300m'));
  assert.equal(quantity('1Gi'), quantity('1024Mi'));
  assert.equal(
    duetFairness(
      base({ pod: CPU300 }),
      head({ pod: { resources: { requests: { cpu: '0.3' }, limits: { cpu: 0.3 } } } }),
    ).why,
    null,
  );
});

test('qos: the class the kubelet derives (BestEffort, Burstable, Guaranteed), a limit alone being also the request', () => {
  const pod = (resources) => ({ containers: [{ name: 'p', ...(resources && { resources }) }] });
  assert.equal(qosClass(pod()), 'BestEffort');
  assert.equal(qosClass(pod({ requests: { cpu: '100m' } })), 'Burstable');
  assert.equal(qosClass(pod({ limits: { cpu: '1', memory: '1Gi' } })), 'Guaranteed');
  assert.equal(qosClass(pod({ requests: { cpu: '500m' }, limits: { cpu: '1', memory: '1Gi' } })), 'Burstable');
  assert.deepEqual(qos(pod(), pod({ limits: { cpu: '1', memory: '1Gi' } }))[0], {
    class: 'qos',
    what: 'QoS class',
    base: 'BestEffort',
    head: 'Guaranteed',
  });
});

test('priority: a priority class on one side only', () => {
  assert.equal(priority({}, { priorityClassName: 'system-cluster-critical' })[0].head, 'system-cluster-critical');
  const v = duetFairness(base(), head({ pod: { priorityClassName: 'high' } }));
  assert.equal(v.why, `the head changes its priority class (priorityClassName): ${WHY}`);
});

test('placement: nodeSelector, affinity, tolerations — but an anti-affinity on its own release compares equal', () => {
  const v = duetFairness(base(), head({ pod: { nodeSelector: { 'ingress-ready': 'true' } } }));
  assert.equal(v.why, `the head changes where its pods may run (nodeSelector): ${WHY}`);
  const anti = (release) => ({
    affinity: {
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          {
            labelSelector: { matchLabels: { 'app.kubernetes.io/instance': release } },
            topologyKey: 'kubernetes.io/hostname',
          },
        ],
      },
    },
  });
  assert.equal(duetFairness(base({ pod: anti('traefik') }), head({ pod: anti('traefik-b') })).why, null);
  assert.deepEqual(
    placement({}, { tolerations: [{ key: 'ingress', effect: 'NoSchedule' }] }).map((d) => d.what),
    ['tolerations'],
  );
});

test('host: hostNetwork (and hostPID, hostIPC) on one side', () => {
  assert.deepEqual(hostNamespaces({}, { hostNetwork: true })[0], {
    class: 'host',
    what: 'hostNetwork',
    base: 'false',
    head: 'true',
  });
  assert.deepEqual(hostNamespaces({ hostNetwork: false }, {}), []);
  assert.match(
    duetFairness(base(), head({ pod: { hostNetwork: true } })).why,
    /its use of the host's namespaces \(hostNetwork\)/,
  );
});

test('runtime: another runtime class (a sandbox burns CPU outside the pod cgroup)', () => {
  assert.equal(runtime({}, { runtimeClassName: 'gvisor' })[0].head, 'gvisor');
  assert.match(duetFairness(base(), head({ pod: { runtimeClassName: 'gvisor' } })).why, /its container runtime/);
});

test('replicas: more pods on one side, more of the node', () => {
  assert.deepEqual(replicas(1, 2), [{ class: 'replicas', what: 'replicas', base: '1', head: '2' }]);
  assert.equal(duetFairness(base(), head({ replicas: 2 })).why, `the head changes its pods (1 → 2): ${WHY}`);
});

test('sysctls: found, but namespaced per pod — shared fairly, the catalog tuned duet (somaxconn) stays a duet', () => {
  const tuned = { securityContext: { sysctls: [{ name: 'net.core.somaxconn', value: '32768' }] } };
  assert.deepEqual(sysctls({}, tuned), [
    { class: 'sysctls', what: 'net.core.somaxconn', base: '(not set)', head: '32768' },
  ]);
  const v = duetFairness(base(), head({ pod: tuned }));
  assert.equal(v.why, null);
  assert.deepEqual(
    v.fair.map((d) => d.what),
    ['net.core.somaxconn'],
  );
});

// The driver's decision, after the values check rendered each release (preflight).
function duetPlan({ scenario = { faults: [] }, headName = 'traefik', prDuet = true } = {}) {
  const cells = [1, 2, 3, 4].map((rep) => ({
    key: 'traefik/default/steady',
    id: `traefik/default/steady/rep-${rep}`,
    controllerName: 'traefik',
    tuningName: 'default',
    scenarioName: 'steady',
    scenario,
    repetition: rep,
    concurrent: { name: headName, tuningName: 'default' },
    sequential: { minPairs: 3, maxPairs: 4 },
    ...(rep > 3 && { optional: true }),
  }));
  return { matrixName: 'pr', cells, prDuet };
}
const checks = (basePod, headPod) => [
  {
    kind: 'check',
    release: 'traefik',
    tuning: 'default',
    namespace: 'tailgate-ingress',
    rendered: rendered({ pod: basePod }),
  },
  {
    kind: 'check',
    release: 'traefik-b',
    tuning: 'default',
    namespace: 'tailgate-ingress-b',
    rendered: rendered({ release: 'traefik-b', namespace: 'tailgate-ingress-b', pod: headPod }),
  },
];

test('one at a time: an unfair duet cell is loaded one side at a time from its first pair, and says why once', () => {
  const plan = duetPlan();
  const lines = [];
  oneAtATime(plan, checks(CPU300, {}), (l) => lines.push(l));
  assert.ok(
    plan.cells.every((c) => c.alternate && c.oneAtATime.startsWith('the head changes its CPU request and limit')),
  );
  assert.deepEqual(lines, [
    "  traefik:default traefik:default: the sides' pods differ — Deployment/<release>: requests.cpu 300m → (not set); Deployment/<release>: limits.cpu 300m → (not set); Deployment/<release>: QoS class Burstable → BestEffort",
    `  traefik/default/steady: one side at a time — ${plan.cells[0].oneAtATime}`,
  ]);
  // A fair one stays a duet.
  const fair = duetPlan();
  oneAtATime(fair, checks(CPU300, CPU300));
  assert.ok(fair.cells.every((c) => !c.alternate && !c.oneAtATime));
});

test('one at a time: not for route edits (alternate cannot), not for a migration or a named duet, not without rendered manifests', () => {
  const lines = [];
  const routed = duetPlan({ scenario: { faults: [{ type: 'route-add' }] } });
  oneAtATime(routed, checks(CPU300, {}), (l) => lines.push(l));
  assert.ok(routed.cells.every((c) => !c.alternate));
  assert.match(lines[1], /edits routes under load, which one side at a time cannot: stays a duet/);
  const migration = duetPlan({ headName: 'haproxy-ingress' });
  oneAtATime(migration, checks(CPU300, {}));
  assert.ok(migration.cells.every((c) => !c.alternate));
  // A duet asked for by name (a matrix's head, --ab-head: make perf's CPU canaries) is
  // measured as asked; the log says it is unfair.
  const named = duetPlan({ prDuet: false });
  const said = [];
  oneAtATime(named, checks(CPU300, {}), (l) => said.push(l));
  assert.ok(named.cells.every((c) => !c.alternate));
  assert.match(said[1], /a duet asked for by name stays one/);
  const blind = duetPlan();
  oneAtATime(blind, [{ kind: 'check', release: 'traefik', tuning: 'default' }]);
  assert.ok(blind.cells.every((c) => !c.alternate));
});

test("one at a time keeps the sequential budget: its optional pairs are looked at as a duet's are", () => {
  const plan = duetPlan();
  oneAtATime(plan, checks(CPU300, {}));
  const runDir = scratchDir('tg-fair-seq-');
  const looked = [];
  const interim = ({ cell, base: b }) => {
    looked.push(cell.repetition);
    return { decision: 'stop-pass', why: 'p99 ×1.00, clearly within 10%', pairs: b.length };
  };
  const looks = sequence({ runDir, stages: { interim }, log: () => {} });
  for (const c of plan.cells.filter((x) => !x.optional))
    for (const side of ['base', 'head']) {
      const dir = join(runDir, side, 'traefik', 'default', 'steady', `rep-${c.repetition}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'result.json'), '{}');
    }
  assert.equal(looks.wanted(plan.cells[3]), false); // decided: the optional pair is skipped
  assert.deepEqual(looked, [4]);
});

test('the comment says why in one line on its first screen, carried through duet-change.json', () => {
  const plan = duetPlan();
  oneAtATime(plan, checks(CPU300, {}));
  const list = oneAtATimeCells(plan);
  assert.deepEqual(list, [{ cell: 'traefik/default/steady', why: plan.cells[0].oneAtATime }]);
  const headDir = scratchDir('tg-fair-head-');
  writeFileSync(
    join(headDir, 'duet-change.json'),
    JSON.stringify({ kind: 'tailgate.duet-change', changes: [], oneAtATime: list }),
  );
  assert.deepEqual(readOneAtATime(headDir), list);
  const body = renderMarkdown({ overall: 'pass', mode: 'paired', cells: [], exitCode: 0, oneAtATime: list });
  const line = body.split('\n').find((l) => l.includes('One side at a time'));
  assert.match(
    line,
    /`traefik\/default\/steady` — the head changes its CPU request and limit .*: a duet would measure the two sides' share of the node\./,
  );
});
