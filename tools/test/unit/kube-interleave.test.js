// interleave on kind: every controller's cluster up at once, the controllers measured
// in turn (a migration comparison spreads the runner's drift over all of them).
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { once } from 'node:events';
import { test } from 'node:test';
import { parse } from 'yaml';
import { loadBench, parseBench } from '../../src/config/load.js';
import { planMatrix } from '../../src/plan/plan.js';
import { hostPortCount, planSteps } from '../../src/targets/kube/steps/layout.js';
import { kubeContext } from '../../src/targets/kube/context.js';
import { writeKindConfig } from '../../src/targets/kube/builtins.js';
import { busyLine, canListen, freeHostPorts } from '../../src/targets/kube/host-ports.js';
import { scratchDir } from '../helpers/scratch.js';

const ROOT = new URL('../../../', import.meta.url).pathname;

function plan() {
  const cwd = process.cwd();
  process.chdir(ROOT);
  try {
    const cfg = loadBench('tools/test/fixtures/kind/bench.yaml');
    // Two scenarios (the e2e run itself has steady only): the order across them is the point.
    const p = planMatrix(cfg, 'e2e-interleave', { repetitions: 2, scenarios: ['steady', 'pod-kill'] });
    return { p, steps: planSteps(p, kubeContext({ target: 'kind', runId: 'x', runDir: join(ROOT, 'results', 'r1') })) };
  } finally {
    process.chdir(cwd);
  }
}

test('interleave: cells go tuning, repetition, scenario, then controller — each scenario on every controller in turn', () => {
  const { p } = plan();
  assert.deepEqual(
    p.cells.slice(0, 7).map((c) => c.id),
    [
      'traefik/default/steady/rep-1',
      'traefik-gateway/default/steady/rep-1',
      'haproxy-ingress/default/steady/rep-1',
      'traefik/default/pod-kill/rep-1',
      'traefik-gateway/default/pod-kill/rep-1',
      'haproxy-ingress/default/pod-kill/rep-1',
      'traefik/default/steady/rep-2',
    ],
  );
});

test('interleave: every cluster is created (each on its own host port) before the first measurement, torn down after the last; each cell loads its own cluster', () => {
  const { p, steps } = plan();
  const first = (pred) => steps.findIndex(pred);
  const last = (pred) => steps.findLastIndex(pred);
  const firstMeasure = first((s) => s.kind === 'measure');
  assert.ok(last((s) => s.kind === 'create') < firstMeasure);
  assert.ok(first((s) => s.kind === 'teardown') > last((s) => s.kind === 'measure'));
  const configs = steps.filter((s) => s.builtin === 'writeKindConfig');
  assert.deepEqual(
    configs.map((s) => [s.controller, s.hostPort, s.to]),
    [
      ['traefik', 18080, 'results/r1/kind-traefik.yaml'],
      ['traefik-gateway', 18081, 'results/r1/kind-traefik-gateway.yaml'],
      ['haproxy-ingress', 18082, 'results/r1/kind-haproxy-ingress.yaml'],
    ],
  );
  for (const s of steps.filter((x) => x.kind === 'create'))
    assert.equal(s.argv[s.argv.indexOf('--config') + 1], `results/r1/kind-${s.controller}.yaml`);
  const measures = steps.filter((s) => s.kind === 'measure');
  assert.deepEqual(
    measures.map((s) => s.cell.id),
    p.cells.map((c) => c.id),
    'measurements in the plan order',
  );
  const port = { traefik: 18080, 'traefik-gateway': 18081, 'haproxy-ingress': 18082 };
  for (const s of measures) {
    assert.equal(s.url, `http://127.0.0.1:${port[s.controller]}`);
    assert.equal(s.env.TG_TARGET_URL, s.url);
  }
  for (const s of steps.filter((x) => x.builtin === 'waitHttp'))
    assert.equal(s.url, `http://127.0.0.1:${port[s.controller]}/healthz`);
});

test('interleave: the kind config keeps the topology and moves only the ingress mapping; a topology without exactly one is refused', () => {
  const dir = scratchDir('tg-kindcfg-');
  const to = join(dir, 'out', 'kind-x.yaml');
  writeKindConfig(join(ROOT, 'clusters', 'affinity.yaml'), 18082, to);
  const before = parse(readFileSync(join(ROOT, 'clusters', 'affinity.yaml'), 'utf8'));
  const after = parse(readFileSync(to, 'utf8'));
  const ports = (d) => d.nodes.flatMap((n) => n.extraPortMappings ?? []);
  assert.deepEqual(
    ports(after),
    ports(before).map((m) => ({ ...m, hostPort: 18082 })),
  );
  assert.deepEqual({ ...after, nodes: after.nodes.length }, { ...before, nodes: before.nodes.length });
  const bad = join(dir, 'bad.yaml');
  writeFileSync(bad, 'kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nnodes: [{ role: control-plane }]\n');
  assert.throws(
    () => writeKindConfig(bad, 18081, to),
    (e) => e.exitCode === 4 && /found 0/.test(e.message),
  );
});

test('interleave: only on kind (an existing cluster holds one controller at a time)', () => {
  const text = `apiVersion: tailgate/v1
kind: Bench
controllers:
  traefik:
    type: helm
    chart: { repo: https://traefik.github.io/charts, name: traefik, version: 41.3.0 }
scenarios:
  steady: { script: steady, rate: 100, duration: 20s }
profiles:
  lab: { runner: self-hosted }
matrices:
  m: { target: cluster, profile: lab, controllers: [traefik], scenarios: [steady], interleave: true }
`;
  assert.throws(
    () => parseBench(text, 'bench.yaml'),
    (e) => e.details.some((d) => /matrices\.m\.interleave: applies to target "kind" only/.test(d)),
  );
});

test('interleave: one controller (a CI job per cell) keeps the plain layout — the shared kind config, port 18080', () => {
  const cwd = process.cwd();
  process.chdir(ROOT);
  try {
    const cfg = loadBench('tools/test/fixtures/kind/bench.yaml');
    const p = planMatrix(cfg, 'e2e-interleave', { controllers: ['haproxy-ingress'], repetitions: 1 });
    const steps = planSteps(p, kubeContext({ target: 'kind', runId: 'x' }));
    assert.ok(!steps.some((s) => s.builtin === 'writeKindConfig'));
    const create = steps.find((s) => s.kind === 'create');
    assert.equal(create.argv[create.argv.indexOf('--config') + 1], 'clusters/single.yaml');
    assert.ok(steps.filter((s) => s.kind === 'measure').every((s) => s.url === 'http://127.0.0.1:18080'));
  } finally {
    process.chdir(cwd);
  }
});

// A port some other process holds: docker would refuse the cluster half made (CI's failing
// kind cases said only "create kind cluster … exit code 1"); the run takes free ones.
test('host ports: a busy 18080 moves the ingress to the next free port, in a kind config of the run, and says so', async () => {
  const held = new Set([18080, 18082]);
  const isFree = async (p) => !held.has(p);
  assert.deepEqual(await freeHostPorts(2, { isFree }), { ports: [18081, 18083], busy: [18080, 18082] });
  assert.deepEqual(await freeHostPorts(1, { isFree: async () => true }), { ports: [18080], busy: [] });
  assert.equal(
    busyLine(await freeHostPorts(2, { isFree }), 'this run takes'),
    'host ports 18080, 18082 are in use on 127.0.0.1: this run takes 18081, 18083 instead',
  );
  // As many as the plan publishes at once: three interleaved clusters, or one.
  assert.equal(hostPortCount(plan().p), 3);
  await assert.rejects(
    freeHostPorts(1, { isFree: async () => false }),
    /no 1 free host ports on 127\.0\.0\.1 between 18080 and 18279/,
  );
  // The real probe: a port this test listens on is not free.
  const srv = createServer().listen(0, '127.0.0.1');
  await once(srv, 'listening');
  assert.equal(await canListen(srv.address().port), false);
  srv.close();

  const cwd = process.cwd();
  process.chdir(ROOT);
  try {
    const cfg = loadBench('tools/test/fixtures/kind/bench.yaml');
    const p = planMatrix(cfg, 'e2e-interleave', { controllers: ['haproxy-ingress'], repetitions: 1 });
    const steps = planSteps(
      p,
      kubeContext({ target: 'kind', runId: 'x', runDir: join(ROOT, 'results', 'r1'), hostPorts: [18081] }),
    );
    assert.equal(hostPortCount(p), 1);
    const write = steps.find((s) => s.builtin === 'writeKindConfig');
    assert.deepEqual([write.hostPort, write.to], [18081, 'results/r1/kind-haproxy-ingress.yaml']);
    const create = steps.find((s) => s.kind === 'create');
    assert.equal(create.argv[create.argv.indexOf('--config') + 1], 'results/r1/kind-haproxy-ingress.yaml');
    assert.ok(steps.filter((s) => s.kind === 'measure').every((s) => s.url === 'http://127.0.0.1:18081'));
  } finally {
    process.chdir(cwd);
  }
});
