// Two route faults of one kind in a scenario (issue 51, class 9): every edit must be made on
// an object that did not exist before — applying one that is already there changes nothing,
// and a data plane that already serves its host "follows" it in a millisecond. The fake
// cluster below keeps the API's objects (an apply of an unchanged object is a no-op) and a
// data plane that follows each change LAG_MS later, so a reused name shows as a time far
// below LAG_MS as well as in the names.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { test } from 'node:test';
import { faultTiming } from '../../src/config/normalise.js';
import { startFaults } from '../../src/faults/schedule.js';
import { EventLog } from '../../src/run/event-log.js';
import * as kubeRoutes from '../../src/targets/kube/routes.js';
import { withFakeTool } from '../helpers/fake-tool.js';
import { scratchDir } from '../helpers/scratch.js';

const LAG_MS = 300;
// The data plane's clock starts when the test sees kubectl's call in its log (every 5 ms),
// tailgate's once kubectl has returned — about the same moment, whatever the machine's load
// does to a process's start: a real propagation measures about LAG_MS, a reused object a
// probe's few ms.
const REAL_MS = 150;
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

function assertDns1123(name, what) {
  assert.ok(name.length <= 253, `${what} ${name}: over 253 characters`);
  for (const label of name.split('.'))
    assert.ok(label.length <= 63 && DNS1123_LABEL.test(label), `${what} ${name}: label "${label}" is not DNS-1123`);
}

// The fake kubectl's calls ({at, args}), each stamped when this process first saw it.
function watchCalls(log) {
  const calls = [];
  const timer = setInterval(() => {
    let lines = [];
    try {
      lines = readFileSync(log, 'utf8').split('\n').slice(0, -1);
    } catch {
      // no kubectl call yet
    }
    for (const line of lines.slice(calls.length)) calls.push({ at: Date.now(), args: line.split(' ') });
  }, 5);
  return { calls, stop: () => clearInterval(timer) };
}

// The API's objects and what a side's data plane serves (the head: its objects end in -b,
// its loaded route is backend-b) at `now`, from kubectl's calls.
function clusterAt(calls, now, side = 'base') {
  const mine = (name) => name.endsWith('-b') === (side === 'head');
  const objects = new Map(); // name -> {host, since}
  const gone = new Map(); // '<side> <host>' -> when its last object was deleted
  const patches = [];
  const applied = [];
  for (const { at, args } of calls) {
    if (args.includes('apply')) {
      const doc = JSON.parse(readFileSync(args.at(-1), 'utf8'));
      for (const o of doc.kind === 'List' ? doc.items : [doc]) {
        const host = o.spec.rules?.[0].host ?? o.spec.hostnames[0];
        applied.push({ name: o.metadata.name, host, at });
        // kubectl apply of an object as it is: "unchanged", nothing for the data plane.
        if (objects.get(o.metadata.name)?.host !== host) objects.set(o.metadata.name, { host, since: at });
      }
    } else if (args.includes('delete')) {
      const label = args.includes('-l');
      for (const [name, o] of objects)
        if (label || args[args.indexOf('delete') + 2] === name) {
          objects.delete(name);
          gone.set(`${name.endsWith('-b') ? 'head' : 'base'} ${o.host}`, at);
        }
    } else if (args.includes('patch'))
      patches.push({
        at,
        route: args[args.indexOf('patch') + 2],
        alt: args.join(' ').includes('"value":"backend-alt"'),
      });
  }
  // A deleted route is served LAG_MS more, a new one from LAG_MS on, a switch after LAG_MS.
  const serves = (host) =>
    [...objects].some(([name, o]) => mine(name) && o.host === host && now - o.since >= LAG_MS) ||
    now - (gone.get(`${side} ${host}`) ?? -Infinity) < LAG_MS;
  const alt = patches.filter((p) => mine(p.route) && now - p.at >= LAG_MS).at(-1)?.alt ?? false;
  return { serves, alt, applied, patches };
}

async function fakeDataPlane(calls, side) {
  const server = createServer((req, res) => {
    const c = clusterAt(calls, Date.now(), side);
    const host = req.headers.host;
    if (host === 'bench.local') {
      res.statusCode = 200;
      if (c.alt) res.setHeader('X-Tailgate-Backend', 'alt');
    } else res.statusCode = req.url === '/healthz' && c.serves(host) ? 200 : 404;
    res.end();
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${server.address().port}` };
}

const duet = ([url, urlB]) => [
  { side: 'base', url, ingressClass: 'traefik', loaded: 'backend' },
  { side: 'head', url: urlB, ingressClass: 'traefik-b', loaded: 'backend-b' },
];

const readEvents = (file) => readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map(JSON.parse);

// One measurement: the scenario's faults through the real schedule, run until every edit
// it makes has ended on every side, then stopped and cleaned up as measure.js does.
async function measure({ urls, dir, tag, faults, carried = 0 }) {
  const events = new EventLog(join(dir, `events-${tag}.jsonl`));
  const routes = new kubeRoutes.KubeRoutes({ kubectlFlags: ['--context', 'x'], events, dir, sides: duet(urls), tag });
  if (carried) await routes.carry(carried, async () => null);
  const timed = faults.map(faultTiming);
  const expected = 2 * timed.reduce((a, f) => a + (f.routes ?? f.changes), 0);
  const run = startFaults(timed, { pods: null, routes, events, offsetMs: 0 });
  const ended = () => readEvents(events.file).filter((e) => /^route-(not-)?ready$/.test(e.type));
  for (const until = Date.now() + 15_000; ended().length < expected && Date.now() < until;)
    await new Promise((r) => setTimeout(r, 50));
  const errors = await run.stop();
  await routes.cleanup();
  assert.deepEqual(
    errors.map((e) => e.message),
    [],
  );
  return readEvents(events.file);
}

test('two faults of each route kind in one scenario: every object and host new, each edit followed for its real propagation time, a second measurement on new names too', async (t) => {
  const dir = scratchDir('tg-routes-twice-');
  const log = join(dir, 'kubectl.log');
  const kubectl = watchCalls(log);
  const planes = [await fakeDataPlane(kubectl.calls, 'base'), await fakeDataPlane(kubectl.calls, 'head')];
  const urls = planes.map((p) => p.url);
  // The second fault of each kind starts once the first one's routes are served (add) or
  // deleted (remove), or while its changes are under way (change): where a reused name or
  // an interleaved switch back is "followed" at once.
  const faults = [
    { type: 'route-add', routes: 3, every: '100ms', timeout: '5s' },
    { type: 'route-add', routes: 3, every: '100ms', timeout: '5s', startAfter: '700ms' },
    { type: 'route-remove', routes: 2, every: '100ms', timeout: '5s' },
    { type: 'route-remove', routes: 2, every: '100ms', timeout: '5s', startAfter: '700ms' },
    { type: 'route-change', changes: 2, every: '100ms', timeout: '5s' },
    { type: 'route-change', changes: 2, every: '100ms', timeout: '5s', startAfter: '100ms' },
  ];
  let first;
  let second;
  try {
    await withFakeTool('kubectl', `#!/bin/sh\necho "$*" >> "${log}"\n`, {}, async () => {
      first = await measure({ urls, dir, tag: 'm1', faults, carried: 4 });
      second = await measure({ urls, dir, tag: 'm2', faults: faults.slice(0, 1) });
    });
  } finally {
    for (const p of planes) p.server.close();
    kubectl.stop();
  }
  const { applied, patches } = clusterAt(kubectl.calls, Date.now());
  // Fault n's objects in the first measurement (the second has a fault 0 of its own).
  const ofFault = (n) =>
    applied.filter(
      (a) => [`route-add-f${n}-`, `route-remove-f${n}-`].some((p) => a.name.startsWith(p)) && /-m1(-b)?$/.test(a.name),
    );
  // Every object applied was new: no name and no host applied twice, in either measurement,
  // the carried routes and the chart's loaded route included.
  const names = applied.map((a) => a.name);
  assert.equal(new Set(names).size, names.length, `names applied twice: ${names}`);
  assert.ok(!names.includes('backend') && !names.includes('backend-b'));
  // One host per edit, shared by the duet's two sides (each its own object on its own class).
  const hosts = applied.map((a) => a.host);
  assert.equal(new Set(hosts).size, hosts.length / 2, `hosts applied twice: ${hosts}`);
  assert.ok(!hosts.includes('bench.local'));
  for (const [a, b] of [
    [0, 1],
    [2, 3],
  ]) {
    const [one, two] = [ofFault(a), ofFault(b)];
    assert.equal(two.length, one.length, `fault ${b} applied ${two.length} objects`);
    assert.ok(two.length > 0);
    for (const o of two) {
      assert.ok(!one.some((p) => p.name === o.name || p.host === o.host), `${o.name} (${o.host}) reused`);
      // Nothing applied before it had its name or its host (but its twin on the duet's other side).
      const twin = (p) => p.name.replace(/-b$/, '') === o.name.replace(/-b$/, '');
      const before = applied.filter((p) => p.at < o.at && !twin(p));
      assert.ok(before.length > 0);
      assert.ok(
        before.every((p) => p.name !== o.name && p.host !== o.host),
        `${o.name} (${o.host}) applied before`,
      );
    }
  }
  for (const a of applied) {
    assertDns1123(a.name, 'object');
    assertDns1123(a.host, 'host');
  }
  // Each edit of each fault, on each side, followed for the data plane's real time.
  for (const events of [first, second]) {
    const ended = events.filter((e) => /^route-(not-)?ready$/.test(e.type));
    const unreal = ended.filter((e) => e.type !== 'route-ready' || e.propagationMs < REAL_MS);
    assert.deepEqual(
      unreal.map((e) => `${e.edit} of fault ${e.fault}, ${e.side}: ${e.propagationMs ?? e.reason}`),
      [],
    );
  }
  const times = [...first, ...second].filter((e) => e.type === 'route-ready').map((e) => e.propagationMs);
  t.diagnostic(
    `${times.length} edits followed in ${Math.min(...times)}–${Math.max(...times)} ms (the data plane: ${LAG_MS})`,
  );
  const readyPer = (events) => {
    const n = {};
    for (const e of events.filter((x) => x.type === 'route-ready'))
      n[`${e.edit} ${e.fault}`] = (n[`${e.edit} ${e.fault}`] ?? 0) + 1;
    return n;
  };
  // Per fault: its edits × the duet's two sides.
  assert.deepEqual(readyPer(first), {
    'add 0': 6,
    'add 1': 6,
    'remove 2': 4,
    'remove 3': 4,
    'change 4': 4,
    'change 5': 4,
  });
  assert.deepEqual(readyPer(second), { 'add 0': 6 });
  // The four changes of the two route-change faults took turns: each side's loaded route
  // switched to the other Service every time, never twice to the same one.
  for (const loaded of ['backend', 'backend-b'])
    assert.deepEqual(
      patches.filter((p) => p.route === loaded).map((p) => p.alt),
      [true, false, true, false],
    );
  // What the measurement made was deleted after it: one delete by label.
  assert.match(readFileSync(log, 'utf8'), /delete ingress -l tailgate\.dev\/route-fault/);
});

test('route-change: a change no side followed is not switched back "at once" — the next one waits for its start, censored when it never comes', async () => {
  const dir = scratchDir('tg-routes-stuck-');
  const log = join(dir, 'kubectl.log');
  // A data plane that never leaves the first Service.
  const server = createServer((req, res) => {
    res.statusCode = 200;
    res.end();
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${server.address().port}`;
  const events = new EventLog(join(dir, 'events.jsonl'));
  const signal = new AbortController().signal;
  try {
    await withFakeTool('kubectl', `#!/bin/sh\necho "$*" >> "${log}"\n`, {}, async () => {
      const routes = new kubeRoutes.KubeRoutes({
        kubectlFlags: [],
        events,
        dir,
        tag: 't',
        sides: [{ side: 'base', url, ingressClass: 'traefik', loaded: 'backend' }],
      });
      await routes.change(0, { timeoutMs: 300, signal, fault: 0 });
      await routes.change(1, { timeoutMs: 300, signal, fault: 0 });
      await routes.cleanup();
    });
  } finally {
    server.close();
  }
  const ended = readEvents(events.file).filter((e) => /^route-(not-)?ready$/.test(e.type));
  assert.deepEqual(
    ended.map((e) => [e.type, e.route, e.timedOut]),
    [
      ['route-not-ready', 0, true],
      ['route-not-ready', 1, true],
    ],
  );
  assert.match(ended[1].reason, /did not show the alt Service before the change/);
  // Both switches made all the same: the API's route is where the sides' count says.
  assert.equal(readFileSync(log, 'utf8').match(/ patch ingress backend /g).length, 2);
});

test('route objects: DNS-1123 names and hosts at the largest fault list, edit count and tag; a missing fault index refused', () => {
  // 16 faults (config/validate.js SCENARIO_LIMITS), 200 edits (the schema), a tag of a far
  // future millisecond.
  const tag = (2 ** 53 - 1).toString(36);
  const seen = new Set();
  for (const edit of ['add', 'remove'])
    for (const fault of [0, 15])
      for (const index of [0, 199])
        for (const side of ['base', 'head']) {
          const { name, host } = kubeRoutes.routeObject({ edit, fault, index, tag, side });
          assertDns1123(name, 'object');
          assertDns1123(host, 'host');
          assert.ok(!seen.has(name), name);
          seen.add(name);
        }
  assert.throws(() => kubeRoutes.routeObject({ edit: 'add', index: 0, tag, side: 'base' }), /the fault's index/);
});
