// Vegeta as tailgate's second engine (issue 61): what each scenario runs as attacks, how
// its results are read back (phase, step, side, latency from the scheduled send), which
// engine `auto` picks, and that a Vegeta result never compares as like with like with k6's.
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, test } from 'node:test';
import { attackArgs, attackName, attackPlan, targetsText } from '../../src/engines/vegeta/plan.js';
import { parseAttackName } from '../../src/engines/vegeta/attack.js';
import { chooseEngine } from '../../src/engines/index.js';
import { ingest } from '../../src/ingest/ingest.js';
import { workloadDiff, workloadRecord } from '../../src/result/workload.js';
import { PINS } from '../../src/version.js';
import { scratchDir } from '../helpers/scratch.js';

const dir = scratchDir('tg-vegeta-engine-');
after(() => rmSync(dir, { recursive: true, force: true }));

const steady = {
  script: 'steady',
  rate: 500,
  duration: '10s',
  warmup: '2s',
  vus: 50,
  maxVus: 2000,
  timeout: '10s',
  payload: '0KiB',
  runners: 1,
};

test('vegeta plan: steady is one open-loop attack over warm-up + duration at the rate, workers up to maxVus', () => {
  const [a, ...rest] = attackPlan(steady);
  assert.equal(rest.length, 0, 'one attack: the warm-up connections carry into the measured phase');
  assert.deepEqual(a.rate, { hits: 500, perMs: 1000 });
  assert.equal(a.durationMs, 12_000);
  assert.equal(a.maxWorkers, 2000);
  assert.equal(a.name, 'tailgate rate=500/1000ms warmup=2000ms window=12000ms');
  const args = attackArgs(a, { scenario: steady, targets: 't.json', output: 'o.bin' });
  // Two intervals past the window: a request due just inside it is sent even when late.
  for (const want of [
    '-rate=500/1000ms',
    '-duration=12004ms',
    '-timeout=10000ms',
    '-max-workers=2000',
    '-insecure',
    '-max-body=0',
  ])
    assert.ok(args.includes(want), want);
});

test('vegeta plan: runner i of n sends rate/n (the n attackers together deliver the rate exactly)', () => {
  const [a] = attackPlan({ ...steady, runners: 3 }, { index: 1, count: 3 });
  assert.deepEqual(a.rate, { hits: 500, perMs: 3000 });
  assert.equal(parseAttackName(a.name).intervalMs, 6, '3 runners at 500/s: one request every 6 ms each');
});

test('vegeta plan: sequential is one worker, closed loop; a pause caps it at one request per pause', () => {
  const [a] = attackPlan({ ...steady, script: 'sequential' });
  assert.equal(a.rate, null);
  assert.equal(a.maxWorkers, 1);
  assert.ok(attackArgs(a, { scenario: steady, targets: 't', output: 'o' }).includes('-rate=0'));
  const [p] = attackPlan({ ...steady, script: 'sequential', pause: '500ms' });
  assert.deepEqual(p.rate, { hits: 1, perMs: 500 });
});

test('vegeta plan: sweep is one attack per rate × connections step, 2 s apart, workers and connections capped', () => {
  const plan = attackPlan({ ...steady, script: 'sweep', rates: [100, 200], connections: [5, 10], duration: '3s' });
  assert.deepEqual(
    plan.map((a) => parseAttackName(a.name).step),
    ['r100-c5', 'r200-c5', 'r100-c10', 'r200-c10'],
  );
  assert.deepEqual(
    plan.map((a) => a.gapMs),
    [0, 2000, 2000, 2000],
  );
  assert.equal(plan[3].maxWorkers, 10);
  assert.ok(attackArgs(plan[3], { scenario: steady, targets: 't', output: 'o' }).includes('-max-connections=10'));
});

test('vegeta plan: saturation is the warm-up at the start rate, then rate steps up to maxRate', () => {
  const plan = attackPlan({ ...steady, script: 'saturation', maxRate: 1000, duration: '20s' });
  assert.equal(parseAttackName(plan[0].name).warmupMs, plan[0].durationMs, 'the first attack is all warm-up');
  assert.equal(plan[0].rate.hits, 100);
  const steps = plan.slice(1).map((a) => a.rate.hits);
  assert.equal(steps.length, 10);
  assert.equal(steps.at(-1), 1000);
  assert.ok(
    steps.every((r, i) => i === 0 || r > steps[i - 1]),
    'rising',
  );
});

test('vegeta targets: the payload path on each side, with the Host header k6 sends', () => {
  const lines = targetsText(steady, { url: 'http://127.0.0.1:1', urlB: 'http://127.0.0.1:2/', host: 'bench.local' })
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.deepEqual(
    lines.map((t) => t.url),
    ['http://127.0.0.1:1/0KiB', 'http://127.0.0.1:2/0KiB'],
  );
  assert.deepEqual(lines[0].header, { Host: ['bench.local'] });
});

test("vegeta attack names: only tailgate's exact form is read; anything else is a plain Vegeta result", () => {
  const name = attackName({
    rate: { hits: 1000, perMs: 1000 },
    warmupMs: 5000,
    windowMs: 9000,
    step: 'r1-c2',
    segment: { index: 0, count: 2 },
  });
  assert.equal(name, 'tailgate rate=1000/1000ms warmup=5000ms window=9000ms step=r1-c2 runner=1/2');
  assert.deepEqual(parseAttackName(name), {
    intervalMs: 1,
    hits: 1000,
    perMs: 1000,
    warmupMs: 5000,
    windowMs: 9000,
    step: 'r1-c2',
  });
  for (const other of ['', 'tailgate', 'tailgate warmup=5s', 'tailgate rate=1/0ms warmup=0ms x', '<script>', null])
    assert.equal(parseAttackName(other)?.intervalMs ?? null, null, String(other));
});

// Results of one tailgate attack as Vegeta encodes them: 1,000/s over 3 s, the first second
// warm-up, alternating two targets; requests from seq 1,500 on sent 50 ms late (a stall of
// the engine), each answered in 1 ms.
function attackResults({ late = 50, lateFrom = 1500, n = 3000 } = {}) {
  const t0 = Date.UTC(2026, 10, 28, 2, 0, 0);
  const name = 'tailgate rate=1000/1000ms warmup=1000ms window=3000ms';
  const lines = [];
  // Vegeta checks its duration before it waits for the next tick: one more, due at 3 s.
  for (let seq = 0; seq <= n; seq++) {
    const start = t0 + seq + (seq >= lateFrom ? late : 0);
    lines.push(
      JSON.stringify({
        attack: name,
        seq,
        code: 200,
        timestamp: new Date(start).toISOString(),
        latency: 1_000_000,
        bytes_out: 0,
        bytes_in: 0,
        error: '',
        body: null,
        method: 'GET',
        url: seq % 2 ? 'http://127.0.0.1:2/0KiB' : 'http://127.0.0.1:1/0KiB',
        headers: {},
      }),
    );
  }
  // Vegeta writes in order of completion: the first request is not always the first line.
  [lines[0], lines[3]] = [lines[3], lines[0]];
  return `${lines.join('\n')}\n`;
}

test('vegeta ingest: warm-up by schedule, latency from the scheduled send, late sends counted, nothing due after the window', async () => {
  const file = join(dir, 'attack.json.gz');
  writeFileSync(file, gzipSync(attackResults()));
  const r = await ingest({ output: file, format: 'vegeta', meta: { rate: 1000 } });
  assert.equal(r.phases.warmup.requests, 1000);
  assert.equal(r.phases.measure.requests, 2000);
  assert.equal(r.requests.total, 2000, 'the warm-up is never gated');
  // 1,500 of the measured 2,000 were sent 50 ms late: the user waited 51 ms for them.
  assert.ok(r.latency.percentiles.p50 > 50 && r.latency.percentiles.p50 < 52, String(r.latency.percentiles.p50));
  assert.deepEqual(r.latency.source.schedule, { lateSends: 1500, lateMs: 10, maxLagMs: 50, afterWindow: 1 });
  const onTime = join(dir, 'on-time.json.gz');
  writeFileSync(onTime, gzipSync(attackResults({ late: 0 })));
  const ok = await ingest({ output: onTime, format: 'vegeta' });
  assert.ok(ok.latency.percentiles.p99 <= 1.01, 'on schedule: the latency Vegeta measured');
  assert.equal(ok.latency.source.schedule.lateSends, 0);
});

test('vegeta ingest: requests the schedule asked for but no free worker ever sent are dropped iterations, in their phase', async () => {
  // A stalled engine: only the first 2,200 of the 3,000 due in the window were sent.
  const text = attackResults({ late: 0 })
    .split('\n')
    .filter((l) => !l || Number(/"seq":(\d+)/.exec(l)[1]) < 2200)
    .join('\n');
  const file = join(dir, 'short.json.gz');
  writeFileSync(file, gzipSync(text));
  const r = await ingest({ output: file, format: 'vegeta', meta: { rate: 1000 } });
  assert.equal(r.requests.total, 1200);
  assert.equal(r.load.droppedIterations, 800, 'the 800 never sent, all due in the measured phase');
  assert.ok(r.load.droppedRatio > 0.3);
});

test('vegeta ingest: a duet side is the requests to its own target; an unknown target is refused', async () => {
  const file = join(dir, 'duet.json.gz');
  writeFileSync(file, gzipSync(attackResults({ late: 0 })));
  const sides = { a: 'http://127.0.0.1:1/0KiB', b: 'http://127.0.0.1:2/0KiB' };
  const a = await ingest({ output: file, format: 'vegeta', side: 'a', sides });
  const b = await ingest({ output: file, format: 'vegeta', side: 'b', sides });
  assert.equal(a.requests.total, 1000);
  assert.equal(b.requests.total, 1000);
  await assert.rejects(
    ingest({ output: file, format: 'vegeta', side: 'a', sides: { a: sides.a, b: 'http://other/0KiB' } }),
    /url: not one of the duet's two targets/,
  );
});

test('vegeta ingest: an attack whose first request (seq 0) is missing is truncated, never read as on time', async () => {
  const text = attackResults({ late: 0 })
    .split('\n')
    .filter((l) => !l.includes('"seq":0,'))
    .join('\n');
  const file = join(dir, 'no-seq0.json.gz');
  writeFileSync(file, gzipSync(text));
  await assert.rejects(ingest({ output: file, format: 'vegeta' }), /seq 0\) is missing: results truncated/);
});

test('engine: auto is k6 where the pinned k6 is installed, else Vegeta with one line saying why; a missing engine asked for is refused', async () => {
  const both = async () => ({ k6: PINS.k6, vegeta: PINS.vegeta });
  const noK6 = async () => ({ k6: null, vegeta: PINS.vegeta });
  const otherK6 = async () => ({ k6: 'v0.50.0', vegeta: PINS.vegeta });
  assert.equal((await chooseEngine('auto', { versions: both })).name, 'k6');
  const v = await chooseEngine('auto', { versions: noK6 });
  assert.equal(v.name, 'vegeta');
  assert.match(v.why, /k6 v[\d.]+ is not installed .*Vegeta v12/);
  assert.equal(
    (await chooseEngine('auto', { versions: otherK6 })).name,
    'vegeta',
    'a k6 at another version is not the pin',
  );
  assert.equal((await chooseEngine('vegeta', { versions: both })).name, 'vegeta');
  await assert.rejects(chooseEngine('k6', { versions: noK6 }), /engine k6: k6 v[\d.]+ is not installed/);
  await assert.rejects(chooseEngine('wrk', { versions: both }), /engine: expected one of auto, k6, vegeta/);
});

test('engine: a Vegeta result and a k6 result of the same cell never compare as like with like', () => {
  const k6 = workloadRecord(steady, { name: 'k6', version: PINS.k6 });
  const vegeta = workloadRecord(steady, { name: 'vegeta', version: PINS.vegeta });
  assert.equal(vegeta.tool, 'vegeta');
  assert.equal(vegeta.vegeta, PINS.vegeta);
  assert.ok(workloadDiff(k6, vegeta).includes('load tool k6 → vegeta'));
  assert.deepEqual(workloadDiff(vegeta, { ...vegeta }), []);
  assert.deepEqual(workloadDiff(vegeta, { ...vegeta, vegeta: 'v12.12.0' }), [`vegeta ${PINS.vegeta} → v12.12.0`]);
  assert.deepEqual(
    workloadRecord({ ...steady, engine: 'auto' }, 'v1.8.1'),
    workloadRecord(steady, 'v1.8.1'),
    'auto is not the load',
  );
});

test('engine: setup --check and doctor accept either engine — no k6 release here is not "missing" where Vegeta runs; neither is', async () => {
  const { run: setup } = await import('../../src/cli/setup.js');
  const { run: doctor } = await import('../../src/cli/doctor.js');
  const quiet = async (fn) => {
    const log = console.log;
    const lines = [];
    console.log = (...a) => lines.push(a.join(' '));
    try {
      return { code: await fn(), out: lines.join('\n') };
    } finally {
      console.log = log;
    }
  };
  const found = (d) => ({ ...d, path: `/bin/${d.name}`, version: d.pin ?? '1.0', ok: true });
  const absent = (d) => ({ ...d, path: null, version: null, ok: false });
  const noK6 = (d) => (d.name === 'k6' ? absent(d) : found(d));
  const s = await quiet(() => setup({ target: 'local', check: true }, [], { probeDep: noK6 }));
  assert.equal(s.code, 0, s.out);
  assert.match(s.out, /^· k6 /m);
  assert.match(s.out, /The local target can run/);
  assert.equal((await quiet(() => doctor({}, [], { probeDep: noK6 }))).code, 0);
  const none = (d) => (d.engine ? absent(d) : found(d));
  const n = await quiet(() => setup({ target: 'local', check: true }, [], { probeDep: none }));
  assert.equal(n.code, 4);
  assert.match(n.out, /missing a load engine \(k6 or vegeta\)/);
  const offPin = (d) =>
    d.name === 'k6' ? { ...found(d), version: 'v0.50.0', ok: false, problem: 'v0.50.0' } : found(d);
  assert.equal(
    (await quiet(() => setup({ target: 'local', check: true }, [], { probeDep: offPin }))).code,
    4,
    'a k6 off its pin is refused even where Vegeta runs',
  );
});

test('engine: a paired gate whose head ran on Vegeta and base on k6 is inconclusive, naming the engines — never a pass', async () => {
  const { cpSync, readdirSync, readFileSync: read } = await import('node:fs');
  const { runCli } = await import('../helpers/cli.js');
  const BASE = new URL('../fixtures/runs/base', import.meta.url).pathname;
  const head = join(scratchDir('tg-engines-'), 'head');
  cpSync(BASE, head, { recursive: true });
  for (const f of readdirSync(head, { recursive: true }).filter((x) => x.endsWith('result.json'))) {
    const doc = JSON.parse(read(join(head, f), 'utf8'));
    const { k6, ...meta } = doc.meta;
    assert.ok(k6, 'the fixture is a k6 run');
    doc.meta = { ...meta, workload: workloadRecord(meta.scenario, { name: 'vegeta', version: PINS.vegeta }) };
    doc.latency.source = { tool: 'vegeta', exact: true };
    writeFileSync(join(head, f), JSON.stringify(doc));
  }
  const out = join(dir, 'engines-verdict.json');
  const r = await runCli(['compare', '--paired', '--base-results', BASE, '--head-results', head, '--out', out]);
  assert.equal(r.code, 3, r.out);
  for (const c of JSON.parse(read(out, 'utf8')).cells) {
    assert.equal(c.verdict, 'inconclusive');
    assert.ok(
      c.reasons.some((x) => /measured different workloads.*load tool k6 → vegeta/.test(x)),
      c.reasons.join('; '),
    );
  }
});
