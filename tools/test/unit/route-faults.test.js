// Route faults (route-add): the schedule, the probe's arithmetic (propagation, errors on
// the way, not ready), what ingest keeps per side, and what the config refuses before
// any cluster. The real thing runs on kind (docs/reproduction.md, routes).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseBench } from '../../src/config/load.js';
import { run as routeAdd } from '../../src/faults/route-add.js';
import { faultTiming } from '../../src/config/normalise.js';
import { carriedCost, routeCost } from '../../src/ingest/route-cost.js';
import { routesRep } from '../../src/result/load.js';
import { EventLog } from '../../src/run/event-log.js';
import { KubeRoutes } from '../../src/targets/kube/routes.js';
import { withFakeTool } from '../helpers/fake-tool.js';
import { scratchDir } from '../helpers/scratch.js';

// KubeRoutes for one base side through Traefik's class, in front of a test server; its
// measurement's tag is "t".
const baseRoutes = (url, dir, events) =>
  new KubeRoutes({
    kubectlFlags: ['--context', 'x'],
    events,
    dir,
    tag: 't',
    sides: [{ side: 'base', url, ingressClass: 'traefik', loaded: 'backend' }],
  });

test('route-add: N routes, one every `every`, each followed to its end; stops adding when the load ends', async () => {
  const added = [];
  const routes = { add: async (i) => added.push([i, Date.now()]) };
  const ac = new AbortController();
  const pause = (ms) => new Promise((r) => setTimeout(r, ms));
  await routeAdd(faultTiming({ type: 'route-add', routes: 4, every: '100ms' }), { routes, pause, signal: ac.signal });
  assert.deepEqual(
    added.map(([i]) => i),
    [0, 1, 2, 3],
  );
  assert.ok(added[3][1] - added[0][1] >= 290, 'spaced by every');
  const early = [];
  const stop = new AbortController();
  setTimeout(() => stop.abort(), 150);
  await routeAdd(faultTiming({ type: 'route-add', routes: 50, every: '100ms' }), {
    routes: { add: async (i) => early.push(i) },
    pause,
    signal: stop.signal,
  });
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
    if (req.url !== '/healthz' || req.headers.host !== 'r0.f0.t.routes.bench.local') {
      res.statusCode = 400;
      return res.end();
    }
    n++;
    res.statusCode = n <= 2 ? 404 : n === 3 ? 503 : 200;
    res.end();
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${server.address().port}`;
  const dir = scratchDir('tg-routes-');
  const events = new EventLog(join(dir, 'events.jsonl'));
  try {
    await withFakeTool('kubectl', '#!/bin/sh\nexit 0\n', {}, async () => {
      const routes = baseRoutes(url, dir, events);
      await routes.add(0, { timeoutMs: 5000, signal: new AbortController().signal, fault: 0 });
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
  const manifest = JSON.parse(readFileSync(join(dir, 'route-add-f0-0-t.json'), 'utf8'));
  assert.equal(manifest.spec.ingressClassName, 'traefik');
  assert.equal(manifest.spec.rules[0].host, 'r0.f0.t.routes.bench.local');
});

test('route cost: per side of a duet, quantiles by rank, routes that never answered counted apart', () => {
  const ev = (side, route, ms, errors = 0, edit) =>
    ms === null
      ? { type: 'route-not-ready', side, route, errors, reason: 'timeout', timedOut: true, afterMs: 30_000, edit }
      : { type: 'route-ready', side, route, propagationMs: ms, errors, probes: 10, edit };
  const events = [
    ev('base', 0, 2000),
    ev('head', 0, 4000, 2),
    ev('base', 1, 1000),
    ev('head', 1, null, 1),
    ev('base', 2, 3000),
    ev('base', 0, 500, 1, 'change'),
    ev('base', 0, 700, 0, 'remove'),
    { type: 'pod-killed', ts: 1 },
  ];
  const { histogram, ...base } = routeCost(events, 'base');
  assert.deepEqual(base, {
    routes: 3,
    ready: 3,
    notReady: 0,
    propagationMs: { p50: 2000, p99: 3000, max: 3000 },
    errorsDuringEdits: 1,
    edits: {
      add: { edits: 3, settled: 3, p50Ms: 2000, maxMs: 3000, errors: 0 },
      change: { edits: 1, settled: 1, p50Ms: 500, maxMs: 500, errors: 1 },
      remove: { edits: 1, settled: 1, p50Ms: 700, maxMs: 700, errors: 0 },
    },
    unsettled: 0,
    timedOut: 0,
    probes: 50,
  });
  // Every edit's time in one histogram: what the gate reads (p50 of 500, 700, 1000, 2000, 3000).
  const read = routesRep({ ...base, histogram }, 'x');
  assert.equal(read.timedEdits, 5);
  assert.ok(Math.abs(read.quantiles.p50 - 1000) < 2, String(read.quantiles.p50));
  const { histogram: h2, ...head } = routeCost(events, 'head');
  assert.deepEqual(head.propagationMs, { p50: 4000, p99: 4000, max: 4000 });
  assert.equal(head.notReady, 1);
  assert.equal(head.errorsDuringEdits, 3);
  // The route given up on is in the histogram at the time it was given up: a lower bound.
  assert.equal(routesRep({ ...head, histogram: h2 }, 'x').timedEdits, 2);
  assert.equal(head.timedOut, 1);
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
        /bench\.yaml:\d+:\d+: scenarios\.routes\.faults\.0\.type: route-add edits Ingress or HTTPRoute objects through the Kubernetes API, and matrix "m" runs on target local/.test(
          d,
        ),
      ),
  );
  assert.throws(
    () => parseBench(text('local', 12), 'bench.yaml'),
    (e) => e.details.some((d) => /faults\.0\.routes: 12 routes every 2s take 22s to make/.test(d)),
  );
  assert.throws(
    () => parseBench(text('local', 500), 'bench.yaml'),
    (e) => e.details.some((d) => /faults\.0\.routes: must be <= 200/.test(d)),
  );
});

test('route-change and route-remove: followed until the data plane shows them, errors on the way counted, the changed route switched back', async () => {
  const dir = scratchDir('tg-routes-');
  const log = join(dir, 'kubectl.log');
  // A data plane that follows the fake kubectl 150 ms late, failing for 60 ms on the way.
  const lag = (line) => Date.now() - Number(line.split(' ')[0]);
  const state = (host) => {
    let lines = [];
    try {
      lines = readFileSync(log, 'utf8').trim().split('\n');
    } catch {
      // no kubectl call yet
    }
    if (host === 'bench.local') {
      const patch = lines.filter((l) => / patch /.test(l)).at(-1);
      if (!patch) return { status: 200 };
      const alt = /backend-alt/.test(patch);
      const t = lag(patch);
      if (t < 90) return { status: 200, alt: !alt };
      if (t < 150) return { status: 503 };
      return { status: 200, alt };
    }
    const applied = lines.find((l) => / apply /.test(l) && l.includes('route-remove-f0-0-t'));
    const deleted = lines.find((l) => / delete ingress route-remove-f0-0-t/.test(l));
    if (deleted) return { status: lag(deleted) < 150 ? 200 : 404 };
    return { status: applied && lag(applied) > 50 ? 200 : 404 };
  };
  const server = createServer((req, res) => {
    const s = state(req.headers.host);
    res.statusCode = s.status;
    if (s.alt) res.setHeader('X-Tailgate-Backend', 'alt');
    res.end();
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${server.address().port}`;
  const events = new EventLog(join(dir, 'events.jsonl'));
  const signal = new AbortController().signal;
  try {
    await withFakeTool('kubectl', `#!/bin/sh\necho "$(date +%s%3N) $*" >> "${log}"\n`, {}, async () => {
      const routes = baseRoutes(url, dir, events);
      await routes.change(0, { timeoutMs: 5000, signal, fault: 0 });
      await routes.remove(0, { timeoutMs: 5000, signal, fault: 0 });
      await routes.cleanup();
    });
  } finally {
    server.close();
  }
  const done = readFileSync(events.file, 'utf8')
    .trim()
    .split('\n')
    .map(JSON.parse)
    .filter((e) => e.type === 'route-ready');
  assert.deepEqual(
    done.map((e) => e.edit),
    ['change', 'remove'],
  );
  const [change, remove] = done;
  // The fake flips 150 ms after kubectl logged; tailgate's clock starts once kubectl has
  // returned, which on a loaded machine is some ms later (137 ms was seen): ≥ 100 says it
  // waited for the flip rather than returning at once.
  assert.ok(change.propagationMs >= 100, `change followed after ${change.propagationMs} ms`);
  assert.ok(change.errors >= 1, 'the 503s on the way are errors of the change');
  assert.ok(remove.propagationMs >= 100 && remove.errors === 0, JSON.stringify(remove));
  const calls = readFileSync(log, 'utf8');
  assert.match(calls, /patch ingress backend --type=json -p .*"value":"backend-alt"/);
  // Switched back after the measurement: the next one starts on the chart's route.
  assert.match(calls.trim().split('\n').at(-1), /patch ingress backend .*"value":"backend"/);
});

test('routes: N — carried before the load in one apply per side, each probed until it answers; the time and the controller cost recorded', async () => {
  const dir = scratchDir('tg-carried-');
  const log = join(dir, 'kubectl.log');
  let applied = null;
  // Answers a carried host 150 ms after the apply, the last ten 300 ms after.
  const server = createServer((req, res) => {
    if (!applied && existsSync(log)) applied = Date.now();
    const i = Number(/^c(\d+)\.t\.carried\.bench\.local$/.exec(req.headers.host)?.[1] ?? -1);
    const ready = applied && Date.now() - applied > (i >= 40 ? 300 : 150);
    res.statusCode = req.url === '/healthz' && i >= 0 && ready ? 200 : 404;
    res.end();
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${server.address().port}`;
  const events = new EventLog(join(dir, 'events.jsonl'));
  const samples = [
    { cpuNs: 1e9, memBytes: 50 * 2 ** 20 },
    { cpuNs: 3e9, memBytes: 60 * 2 ** 20 },
  ];
  try {
    await withFakeTool('kubectl', `#!/bin/sh\necho "$*" >> "${log}"\n`, {}, async () => {
      const routes = baseRoutes(url, dir, events);
      await routes.carry(50, async () => samples.shift());
      await routes.cleanup();
    });
  } finally {
    server.close();
  }
  const list = JSON.parse(readFileSync(join(dir, 'carried-routes-base.json'), 'utf8'));
  assert.equal(list.items.length, 50);
  assert.equal(list.items[49].spec.rules[0].host, 'c49.t.carried.bench.local');
  assert.equal(list.items[49].metadata.name, 'carried-49-t');
  const calls = readFileSync(log, 'utf8').trim().split('\n');
  assert.equal(calls.filter((c) => / apply /.test(c)).length, 1, 'one apply for all 50');
  assert.match(calls.at(-1), /delete ingress -l tailgate\.dev\/route-fault/);
  const evs = readFileSync(events.file, 'utf8').trim().split('\n').map(JSON.parse);
  const cost = carriedCost(evs, 'base');
  assert.equal(cost.routes, 50);
  assert.ok(cost.allAnsweredMs >= 290, `all answered after ${cost.allAnsweredMs} ms`);
  assert.deepEqual(cost.per100Routes, { cpuSeconds: 4 });
  assert.deepEqual(cost.rssMiB, { before: 50, after: 60 });
});

test('routes: N is refused on the local target, and over 2,000', () => {
  const text = (target, n) => `apiVersion: tailgate/v1
kind: Bench
profiles:
  p: { runner: local }
controllers:
  nginx-reload: { type: local, variant: nginx-reload }
scenarios:
  carried: { script: steady, rate: 100, duration: 10s, routes: ${n} }
matrices:
  m: { target: ${target}, profile: p, controllers: [nginx-reload], scenarios: [carried] }
`;
  assert.throws(
    () => parseBench(text('local', 100), 'bench.yaml'),
    (e) => e.details.some((d) => /scenarios\.carried\.routes: carried routes are Ingress or HTTPRoute objects/.test(d)),
  );
  assert.throws(
    () => parseBench(text('local', 2001), 'bench.yaml'),
    (e) => e.details.some((d) => /scenarios\.carried\.routes/.test(d) && /2000/.test(d)),
  );
});

test("faults: durations are read once (faultTiming) — the type's defaults filled, milliseconds beside the written form, which results keep", () => {
  const kill = faultTiming({ type: 'pod-kill', every: '5s' });
  assert.deepEqual(kill.ms, { every: 5000, startAfter: 0, replaceAfter: 1000 });
  assert.equal(kill.every, '5s', 'the written form stays');
  const add = faultTiming({ type: 'route-add', routes: 20, startAfter: '1500ms' });
  assert.deepEqual(add.ms, { every: 1000, startAfter: 1500, timeout: 30_000 });
  assert.deepEqual(faultTiming({ type: 'kill-pause' }).ms, { startAfter: 0, pause: 500, replaceAfter: 0 });
  assert.equal(faultTiming({ type: 'rollout' }).ms.every, undefined, 'a rollout without every happens once');
  assert.ok(Object.isFrozen(kill) && Object.isFrozen(kill.ms));
});
