// Route faults (route-add): the schedule, the probe's arithmetic (propagation, errors on
// the way, not ready), what ingest keeps per side, and what the config refuses before
// any cluster. The real thing runs on kind (docs/reproduction.md, routes).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseBench } from '../../src/config/load.js';
import { run as routeAdd } from '../../src/faults/route-add.js';
import { routeCost } from '../../src/ingest/route-cost.js';
import { EventLog } from '../../src/run/event-log.js';
import { KubeRoutes } from '../../src/targets/kube/routes.js';
import { withFakeTool } from '../helpers/fake-tool.js';

test('route-add: N routes, one every `every`, each followed to its end; stops adding when the load ends', async () => {
  const added = [];
  const routes = { add: async (i) => added.push([i, Date.now()]) };
  const ac = new AbortController();
  const pause = (ms) => new Promise((r) => setTimeout(r, ms));
  await routeAdd({ type: 'route-add', routes: 4, every: '100ms' }, { routes, pause, signal: ac.signal });
  assert.deepEqual(
    added.map(([i]) => i),
    [0, 1, 2, 3],
  );
  assert.ok(added[3][1] - added[0][1] >= 290, 'spaced by every');
  const early = [];
  const stop = new AbortController();
  setTimeout(() => stop.abort(), 150);
  await routeAdd(
    { type: 'route-add', routes: 50, every: '100ms' },
    { routes: { add: async (i) => early.push(i) }, pause, signal: stop.signal },
  );
  assert.ok(early.length < 5, `${early.length} added after the load ended`);
  await assert.rejects(
    routeAdd({ type: 'route-add', routes: 1 }, { routes: null, pause, signal: ac.signal }),
    /needs a target that applies routes/,
  );
});

test('route probe: the first 200 after the apply is the propagation time; 404 is "not yet", anything else an error of that route', async () => {
  let n = 0;
  // 404, 404, 503, then 200: what a data plane that briefly fails a new route looks like.
  // Like the backend, it answers 404 on a path it does not serve: the probe asks /healthz.
  const server = createServer((req, res) => {
    if (req.url !== '/healthz' || req.headers.host !== 'r0.routes.bench.local') {
      res.statusCode = 400;
      return res.end();
    }
    n++;
    res.statusCode = n <= 2 ? 404 : n === 3 ? 503 : 200;
    res.end();
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${server.address().port}`;
  const dir = mkdtempSync(join(tmpdir(), 'tg-routes-'));
  const events = new EventLog(join(dir, 'events.jsonl'));
  try {
    await withFakeTool('kubectl', '#!/bin/sh\nexit 0\n', {}, async () => {
      const routes = new KubeRoutes({
        kubectlFlags: ['--context', 'x'],
        events,
        dir,
        sides: [{ side: 'base', url, ingressClass: 'traefik' }],
      });
      await routes.add(0, { timeoutMs: 5000, signal: new AbortController().signal });
      await routes.cleanup();
    });
  } finally {
    server.close();
  }
  const lines = readFileSync(events.file, 'utf8').trim().split('\n').map(JSON.parse);
  assert.deepEqual(
    lines.map((e) => e.type),
    ['route-applied', 'route-ready'],
  );
  const ready = lines[1];
  assert.equal(ready.errors, 1);
  assert.equal(ready.probes, 4);
  assert.ok(ready.propagationMs >= 0 && ready.propagationMs < 5000);
  const manifest = JSON.parse(readFileSync(join(dir, 'route-add-0.json'), 'utf8'));
  assert.equal(manifest.spec.ingressClassName, 'traefik');
  assert.equal(manifest.spec.rules[0].host, 'r0.routes.bench.local');
});

test('route cost: per side of a duet, quantiles by rank, routes that never answered counted apart', () => {
  const ev = (side, route, ms, errors = 0) =>
    ms === null
      ? { type: 'route-not-ready', side, route, errors, reason: 'timeout' }
      : { type: 'route-ready', side, route, propagationMs: ms, errors };
  const events = [
    ev('base', 0, 2000),
    ev('head', 0, 4000, 2),
    ev('base', 1, 1000),
    ev('head', 1, null, 1),
    ev('base', 2, 3000),
    { type: 'pod-killed', ts: 1 },
  ];
  assert.deepEqual(routeCost(events, 'base'), {
    routes: 3,
    ready: 3,
    notReady: 0,
    propagationMs: { p50: 2000, p99: 3000, max: 3000 },
    errorsDuringEdits: 0,
  });
  assert.deepEqual(routeCost(events, 'head'), {
    routes: 2,
    ready: 1,
    notReady: 1,
    propagationMs: { p50: 4000, p99: 4000, max: 4000 },
    errorsDuringEdits: 3,
  });
  assert.equal(routeCost([{ type: 'pod-killed' }]), null);
});

test('route-add is refused before any cluster: on the local target, and when its routes outlast the load', () => {
  const text = (target, routes = 5) => `apiVersion: tailgate/v1
kind: Bench
profiles:
  p: { runner: local }
controllers:
  nginx-reload: { type: local, variant: nginx-reload }
scenarios:
  routes:
    script: steady
    rate: 100
    duration: 20s
    faults: [{ type: route-add, routes: ${routes}, every: 2s }]
matrices:
  m: { target: ${target}, profile: p, controllers: [nginx-reload], tunings: [default], scenarios: [routes], gate: { latency: { p99: { blocking: false } } } }
`;
  assert.throws(
    () => parseBench(text('local'), 'bench.yaml'),
    (e) =>
      e.exitCode === 2 &&
      e.details.some((d) =>
        /bench\.yaml:\d+:\d+: scenarios\.routes\.faults\.0\.type: route-add adds Ingress or HTTPRoute objects through the Kubernetes API, and matrix "m" runs on target local/.test(
          d,
        ),
      ),
  );
  assert.throws(
    () => parseBench(text('local', 12), 'bench.yaml'),
    (e) => e.details.some((d) => /faults\.0\.routes: 12 routes every 2s take 22s to add/.test(d)),
  );
  assert.throws(
    () => parseBench(text('local', 500), 'bench.yaml'),
    (e) => e.details.some((d) => /faults\.0\.routes: must be <= 200/.test(d)),
  );
});
