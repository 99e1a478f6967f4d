import assert from 'node:assert/strict';
import { writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ingest } from '../../src/ingest/ingest.js';
import { InputError } from '../../src/errors.js';
import { main } from '../../src/cli/main.js';
import { durationLine, droppedLine, k6File, metricLine } from '../helpers/k6-lines.js';
import { scratchDir } from '../helpers/scratch.js';

const dir = scratchDir('tg-ingest-');
const T0 = Date.parse('2026-11-22T10:00:00Z');

function write(name, buf) {
  const p = join(dir, name);
  writeFileSync(p, buf);
  return p;
}

function run(lines) {
  return ingest({
    output: write(`run-${Math.random()}.json.gz`, k6File(lines)),
    meta: { rate: 100, durationMs: 2000 },
  });
}

test('ingest: counts, classes, phases, dropped iterations and the per-second timeline', async () => {
  const lines = [metricLine('http_req_duration')];
  for (let i = 0; i < 100; i++) lines.push(durationLine({ ts: T0 + i * 10, ms: 1 + i / 100, phase: 'warmup' }));
  for (let i = 0; i < 200; i++) lines.push(durationLine({ ts: T0 + 1000 + i * 10, ms: 2 + (i % 10) / 10 }));
  lines.push(durationLine({ ts: T0 + 2500, ms: 0, status: '0', errorCode: '1212', error: 'dial: connection refused' }));
  lines.push(durationLine({ ts: T0 + 2600, ms: 3, status: '502', errorCode: '1502' }));
  lines.push(droppedLine({ ts: T0 + 2700, count: 3 }));
  lines.push(metricLine('dropped_iterations', 'counter'));
  const r = await run(lines);
  assert.equal(r.requests.total, 202);
  assert.equal(r.wholeRun.requests, 302);
  assert.equal(r.errors.total, 2);
  assert.equal(r.errors.byClass.refused, 1);
  assert.equal(r.errors.byClass.http502, 1);
  assert.equal(r.load.droppedIterations, 3);
  assert.equal(r.load.achievedRate, 101);
  assert.equal(r.phases.warmup.requests, 100);
  assert.deepEqual(
    r.timeline.map((x) => x.requests),
    [100, 100, 102],
  );
  assert.equal(r.timeline[2].errors, 2);
  assert.equal(r.timeline[2].dropped, 3);
  assert.ok(Math.abs(r.latency.percentiles.p50 - 2.4) < 0.01, `${r.latency.percentiles.p50}`);
});

test('ingest: events are placed on the k6 clock', async () => {
  const lines = [durationLine({ ts: T0, ms: 1 }), durationLine({ ts: T0 + 3000, ms: 1 })];
  const events = write('events.jsonl', `${JSON.stringify({ ts: T0 + 1500, type: 'pod-kill', pod: 'p1' })}\n`);
  const r = await ingest({ output: write('ev.json.gz', k6File(lines)), events });
  assert.deepEqual(
    r.events.map((e) => [e.type, e.t]),
    [['pod-kill', 1.5]],
  );
});

test('ingest: a truncated gzip is a named input error', async () => {
  const buf = k6File([durationLine({ ts: T0, ms: 1 }), durationLine({ ts: T0 + 1, ms: 1 })]);
  const p = write('trunc.json.gz', buf.subarray(0, buf.length - 12));
  await assert.rejects(
    ingest({ output: p }),
    (err) => err instanceof InputError && err.message.includes('trunc.json.gz'),
  );
});

test('ingest: a cut-off last line is detected even in plain JSON', async () => {
  const text = `${durationLine({ ts: T0, ms: 1 })}\n${durationLine({ ts: T0, ms: 1 }).slice(0, 50)}`;
  const p = write('cut.json', text);
  await assert.rejects(ingest({ output: p }), /cut\.json:2: truncated k6 output/);
});

test('ingest: a file that is not k6 output is refused', async () => {
  const p = write('notk6.json', '{"hello": "world"}\n');
  await assert.rejects(ingest({ output: p }), /notk6\.json:1: not k6 JSON output/);
});

test('ingest: Metric declaration lines (metric key last) are not samples', async () => {
  const r = await run([
    metricLine('http_req_duration'),
    metricLine('http_reqs', 'counter'),
    durationLine({ ts: T0, ms: 5 }),
  ]);
  assert.equal(r.requests.total, 1);
});

test('cli ingest: 0 samples writes the result but exits 3 (inconclusive, never a pass)', async () => {
  const p = write('empty.json.gz', k6File([metricLine('http_req_duration')]));
  const out = join(dir, 'empty-result.json');
  assert.equal(await main(['ingest', p, '--out', out]), 3);
  assert.ok(existsSync(out));
});

test('cli ingest: bad input exits 2 and writes nothing; an existing result is never overwritten', async () => {
  const bad = write('bad.json', 'garbage\n');
  const out = join(dir, 'never.json');
  assert.equal(await main(['ingest', bad, '--out', out]), 2);
  assert.equal(existsSync(out), false);
  const good = write('good.json.gz', k6File([durationLine({ ts: T0, ms: 1 })]));
  const out2 = join(dir, 'once.json');
  assert.equal(await main(['ingest', good, '--out', out2]), 0);
  assert.equal(await main(['ingest', good, '--out', out2]), 2);
  assert.equal(await main(['ingest', good, '--out', out2, '--force']), 0);
});

test('ingest: per-second windows are closed behind the newest second (flat memory); late samples still count', async () => {
  const { Aggregate } = await import('../../src/ingest/aggregate.js');
  const agg = new Aggregate();
  for (let sec = 0; sec < 300; sec++)
    for (let i = 0; i < 10; i++) agg.addRequest({ ts: T0 + sec * 1000 + i, ms: 1, status: '200', phase: 'measure' });
  assert.ok(agg.open.size <= 12, `open windows: ${agg.open.size}`);
  agg.addRequest({ ts: T0 + 5 * 1000, ms: 9, status: '502', phase: 'measure' }); // 295 s late
  const rows = agg.timeline();
  assert.equal(rows.length, 300);
  assert.equal(rows[5].requests, 11);
  assert.equal(rows[5].errors, 1);
  assert.equal(rows[5].late, 1);
  // Windows keep 2 significant digits: 1 ms reads as its bucket's top, within 1%.
  assert.ok(rows[5].p99 >= 1 && rows[5].p99 < 1.01, "a late sample is not in the closed window's percentiles");
  assert.equal(agg.measured().requests, 3001, 'but it is in the run totals');
});
