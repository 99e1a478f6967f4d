// The load engines' contract: one run, request by request (helpers/engine-timeline.js),
// recorded in each registered engine's own format (helpers/engine-recorders.js) and read
// back through that engine's registered reader, must mean the same thing whichever engine
// recorded it — per side of the duet: requests and errors by class measured, requests
// never sent as dropped, each phase's counts, the percentiles of what users waited
// (counted from the scheduled send: a late send's wait included), and each kill's cost as
// ingest/fault-cost.js reckons it from those requests. The test walks the registry
// (tools/src/engines/index.js), so a new engine passes it or is not registered; a reader
// that counts a late send as sent on time fails it. Vegeta also runs live where it is
// installed: a 2-second duet on loopback, its plan, runner and reader together.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { ENGINES, engineOf } from '../../src/engines/index.js';
import { cellLoad } from '../../src/engines/load.js';
import { which } from '../../src/exec/tools.js';
import { DEPENDENCIES } from '../../src/exec/deps.js';
import { faultCost } from '../../src/ingest/fault-cost.js';
import { FORMATS } from '../../src/ingest/formats.js';
import { ingest } from '../../src/ingest/ingest.js';
import { AGGREGATE_LIMITS } from '../../src/ingest/aggregate.js';
import { RECORDERS } from '../helpers/engine-recorders.js';
import { CELL, endOf, meaningOf, timeline } from '../helpers/engine-timeline.js';
import { scratchDir } from '../helpers/scratch.js';

const dir = scratchDir('tg-engine-contract-');
after(() => rmSync(dir, { recursive: true, force: true }));
const ROOT = new URL('../../../', import.meta.url).pathname;
const RUN = timeline();
const eventsFile = join(dir, 'events.jsonl');
writeFileSync(eventsFile, `${RUN.events.map((e) => JSON.stringify(e)).join('\n')}\n`);

// HDR histograms keep 3 significant digits: a quantile is its sample within 0.1%.
const close = (a, b) => Math.abs(a - b) <= 1e-3 * Math.max(Math.abs(a), Math.abs(b)) + 1e-3;

/**
 * Reads `recording` of the timeline with `read` as engine `name`'s reader and throws an
 * AssertionError naming the side and the meaning it breaks; returns the two sides' results.
 */
async function holdsContract(name, read, recording) {
  const entry = FORMATS[name];
  const own = entry.read;
  // The reader under test in ingest's place (a deliberately broken one, below).
  entry.read = read;
  const results = {};
  try {
    for (const side of ['a', 'b']) {
      const r = await ingest({
        output: recording.file,
        format: name,
        events: eventsFile,
        side,
        ...(recording.sides ? { sides: recording.sides } : {}),
        meta: { rate: CELL.scenario.rate },
      });
      meets(r, meaningOf(RUN, side), `${name}, side ${side}`);
      results[side] = r;
    }
  } finally {
    entry.read = own;
  }
  return results;
}

function meets(r, want, who) {
  assert.equal(r.requests.total, want.requests, `${who}: requests measured`);
  assert.equal(r.errors.total, want.errors, `${who}: errors measured (the warm-up's are not)`);
  const byClass = Object.fromEntries(Object.entries(r.errors.byClass).filter(([, n]) => n));
  assert.deepEqual(byClass, want.byClass, `${who}: errors by class`);
  assert.equal(r.load.droppedIterations, want.dropped, `${who}: requests never sent are dropped, on both sides`);
  for (const [phase, p] of Object.entries(want.phases)) {
    assert.equal(r.phases[phase]?.requests, p.requests, `${who}: ${phase} requests`);
    assert.equal(r.phases[phase]?.errors.total, p.errors, `${who}: ${phase} errors`);
  }
  for (const [q, ms] of Object.entries(want.percentiles))
    assert.ok(
      close(r.latency.percentiles[q], ms),
      `${who}: ${q} ${r.latency.percentiles[q]} ms, the timeline's ${ms} ms (counted from the scheduled send: a late send's wait is part of it)`,
    );
  const lateSends = r.latency.source?.schedule?.lateSends;
  if (lateSends !== undefined) assert.equal(lateSends, want.lateSends, `${who}: sends over 10 ms late`);
  // Each kill's cost, as fault-cost.js reckons it from the timeline's own requests.
  const cost = faultCost(RUN.events, want.cost.slow, want.errors, want.cost.failed, {
    requests: want.cost.lag,
    cutMs: AGGREGATE_LIMITS.lagMs,
    complete: true,
  });
  assert.deepEqual(r.faultCost, cost, `${who}: each kill's cost`);
}

test('every registered engine has a recording of the contract, a reader ingest reads it with, and a tools entry', () => {
  for (const name of Object.keys(ENGINES)) {
    assert.equal(typeof RECORDERS[name], 'function', `engine ${name}: no recording in helpers/engine-recorders.js`);
    assert.equal(
      FORMATS[name]?.read,
      engineOf(name).reader.read,
      `engine ${name}: ingest reads it with its own reader`,
    );
    const dep = DEPENDENCIES.find((d) => d.name === engineOf(name).tool);
    assert.ok(dep?.engine, `engine ${name}: an exec/deps.js entry marked engine (doctor, setup)`);
  }
  assert.deepEqual(
    Object.keys(RECORDERS).filter((n) => !ENGINES[n]),
    [],
    'a recording of no registered engine',
  );
  assert.deepEqual(
    DEPENDENCIES.filter((d) => d.engine && !Object.values(ENGINES).some((e) => e.tool === d.name)).map((d) => d.name),
    [],
    'an exec/deps.js engine entry of no registered engine',
  );
});

test('the timeline holds what the contract is about', () => {
  const a = meaningOf(RUN, 'a');
  const b = meaningOf(RUN, 'b');
  assert.ok(a.lateSends > 100, 'late sends');
  assert.ok(a.dropped > 0, 'requests never sent');
  for (const cls of ['timeout', 'refused', 'reset', 'http503']) assert.ok(b.byClass[cls] > 0, cls);
  assert.ok(b.errors > a.errors && b.percentiles.p99 > a.percentiles.p99, 'the sides differ: the head loses more');
  assert.ok(a.phases.warmup.errors === 0 && b.phases.warmup.errors === 1, 'an error in the warm-up');
  assert.equal(RUN.events.length, 2, 'two kills');
});

for (const name of Object.keys(ENGINES))
  test(`engine contract: ${name}'s recording of the timeline means what the timeline does, side by side`, async () => {
    const out = join(dir, name);
    mkdirSync(out, { recursive: true });
    const recording = RECORDERS[name](RUN, out);
    const results = await holdsContract(name, engineOf(name).reader.read, recording);
    // Both sides' kills are the same two kills, and the head's cost more.
    const perKill = (s) => results[s].faultCost.perAction.map((k) => k.errors);
    assert.equal(perKill('a').length, 2);
    assert.ok(perKill('b')[0] > perKill('a')[0], `${name}: the head's first kill costs more errors`);
  });

test('engine contract: a reader that counts a late send as sent on time fails it, on every engine', async () => {
  // The wait before each late send, by the request's end (unique in the timeline).
  const lag = new Map(
    RUN.requests.filter((r) => r.lagUs).map((r) => [Math.round(endOf(RUN, r) * 1000), r.lagUs / 1000]),
  );
  const onTime = (s) => ({ ...s, ms: s.ms - (lag.get(Math.round(s.ts * 1000)) ?? 0) });
  for (const name of Object.keys(ENGINES)) {
    const out = join(dir, `${name}-broken`);
    mkdirSync(out, { recursive: true });
    const recording = RECORDERS[name](RUN, out);
    const { read } = engineOf(name).reader;
    const broken = (file, hooks) => read(file, { ...hooks, onRequest: (s) => hooks.onRequest(onTime(s)) });
    await assert.rejects(holdsContract(name, broken, recording), (err) => {
      assert.match(err.message, new RegExp(`^${name}, side a: p\\d`), `${name}: the percentiles give it away`);
      return true;
    });
  }
});

// Live: Vegeta's own plan, runner and reader on a loopback duet for 1 s of warm-up and 1 s
// measured at 50/s a side; the head's server answers 503 to every 10th request and holds
// every 5th for 30 ms. Where Vegeta is not installed, the recorded contract above stands.
test(
  'engine contract, live: Vegeta on a loopback duet — its runs mean what its servers saw',
  { skip: !which('vegeta') && 'vegeta not installed' },
  async () => {
    const seen = { a: { n: 0, e503: 0 }, b: { n: 0, e503: 0 } };
    const server = (side) =>
      createServer((req, res) => {
        const s = seen[side];
        s.n++;
        if (req.url.endsWith('/healthz') || s.n === 1) return res.end('ok'); // the preflight
        const fail = side === 'b' && s.n % 10 === 0;
        if (fail) s.e503++;
        setTimeout(
          () => {
            res.statusCode = fail ? 503 : 200;
            res.end('ok');
          },
          side === 'b' && s.n % 5 === 0 ? 30 : 0,
        );
      });
    const servers = { a: server('a'), b: server('b') };
    await Promise.all(Object.values(servers).map((s) => new Promise((r) => s.listen(0, '127.0.0.1', r))));
    try {
      const url = (s) => `http://127.0.0.1:${servers[s].address().port}`;
      const scenario = { ...CELL.scenario, rate: 50, warmup: '1s', duration: '1s', timeout: '2s' };
      const cell = { ...CELL, scenario, engine: 'vegeta' };
      const cellDir = join(dir, 'live');
      mkdirSync(cellDir, { recursive: true });
      const outcome = await engineOf('vegeta').run(cellLoad(cell), { cellDir, url: url('a'), urlB: url('b') });
      assert.equal(outcome.exitCode, 0, 'vegeta ran');
      for (const side of ['a', 'b']) {
        const r = await ingest({
          output: outcome.output,
          format: 'vegeta',
          side,
          sides: outcome.sides,
          meta: { rate: 50 },
        });
        // The schedule exactly: 50 a side in each second, none dropped on loopback.
        assert.equal(r.phases.warmup.requests, 50, `live ${side}: warm-up requests`);
        assert.equal(r.requests.total, 50, `live ${side}: measured requests`);
        assert.equal(r.load.droppedIterations, 0, `live ${side}: none dropped`);
        const errors = r.phases.warmup.errors.total + r.errors.total;
        const after = r.latency.source.schedule.afterWindow;
        assert.ok(
          errors <= seen[side].e503 && errors >= seen[side].e503 - after,
          `live ${side}: ${errors} errors read, ${seen[side].e503} 503s sent (${after} after the window)`,
        );
        if (side === 'b') assert.ok(r.latency.percentiles.p90 >= 30, 'live b: every 5th held 30 ms shows at p90');
        else assert.ok(r.latency.percentiles.p50 < 30, 'live a: the base is not the head');
      }
      assert.ok(seen.b.e503 > 0);
    } finally {
      for (const s of Object.values(servers)) s.close();
    }
  },
);

test('the docs name every registered engine: docs/engines.md and the architecture', async () => {
  const { readFileSync } = await import('node:fs');
  const engines = readFileSync(join(ROOT, 'docs/engines.md'), 'utf8');
  const arch = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
  for (const name of Object.keys(ENGINES)) {
    assert.match(engines, new RegExp(`^\\| \\*\\*${name}\\*\\*`, 'im'), `docs/engines.md: a table row for ${name}`);
    assert.ok(arch.includes(`\`${name}/\``), `docs/architecture.md's engines/ row: ${name}/`);
  }
});
