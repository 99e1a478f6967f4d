// One meaning of a kill's cost on every engine (issue 66, item 2): the same per-request
// timeline — when each request was actually sent, how long it waited, how it ended — fed
// through Vegeta's reader and k6's gives the same per-kill figures (faultCost.perAction).
// Vegeta counts latency from the scheduled send (its percentiles keep the engine's own
// lateness: the user waited it); a kill's cost counts from the actual send, so a hiccup of
// the one load generator both sides share is no side's failover.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ingest } from '../../src/ingest/ingest.js';
import { scratchDir } from '../helpers/scratch.js';

const dir = scratchDir('tg-kill-cost-');
after(() => rmSync(dir, { recursive: true, force: true }));

const T0 = Date.UTC(2026, 10, 28, 3, 0, 0);
const EVERY_MS = 5; // 200/s: sides a and b alternate, 100/s each
const WINDOW_MS = 20_000;
const KILLS = [4000, 9000, 14_000];
const URL = { a: 'http://127.0.0.1:18080/0KiB', b: 'http://127.0.0.1:18081/0KiB' };

// The timeline: due (from the schedule), sent, latency, status — per request.
function timeline() {
  const out = [];
  for (let seq = 0; seq <= WINDOW_MS / EVERY_MS; seq++) {
    const due = seq * EVERY_MS;
    const side = seq % 2 ? 'b' : 'a';
    // A hiccup of the load generator at 14.2–14.4 s, after kill 3: 150 ms late on both sides.
    const late = due >= 14_200 && due < 14_400 ? 150 : 0;
    let ms = 2;
    let status = 200;
    // Kill 1 hangs side a (300 ms, every third request for 0.4 s) and fails some of its
    // requests fast (502); kill 2 holds both up, side b longer; kill 3 holds up nothing.
    if (side === 'a' && due >= 4200 && due < 4600 && seq % 3 === 0) ms = 300;
    if (side === 'a' && due >= 4100 && due < 4200 && seq % 4 === 0) status = 502;
    if (side === 'a' && due >= 9100 && due < 9500 && seq % 4 === 0) ms = 250;
    if (side === 'b' && due >= 9100 && due < 9800 && seq % 4 === 1) ms = 250;
    out.push({ seq, side, sent: T0 + due + late, ms, status });
  }
  return out;
}

// Vegeta encode --to json: the actual send and the latency from it, the attack's schedule in its name.
function vegetaFile(requests) {
  const name = `tailgate rate=${1000 / EVERY_MS}/1000ms warmup=0ms window=${WINDOW_MS}ms`;
  const lines = requests.map((r) =>
    JSON.stringify({
      attack: name,
      seq: r.seq,
      code: r.status,
      timestamp: new Date(r.sent).toISOString(),
      latency: r.ms * 1e6,
      bytes_out: 0,
      bytes_in: 0,
      error: r.status === 200 ? '' : `${r.status} Bad Gateway`,
      body: null,
      method: 'GET',
      url: URL[r.side],
      headers: {},
    }),
  );
  const file = join(dir, 'vegeta.json.gz');
  writeFileSync(file, gzipSync(`${lines.join('\n')}\n`));
  return file;
}

// k6 --out json: each request stamped at its end, its latency from its send, its side tagged.
function k6File(requests) {
  const meta = { type: 'Metric', data: { name: 'http_req_duration', type: 'trend', contains: 'time' } };
  const lines = [JSON.stringify({ ...meta, metric: 'http_req_duration' })];
  for (const r of requests.filter((x) => x.sent - T0 < WINDOW_MS)) {
    const tags = { method: 'GET', phase: 'measure', scenario: 'measure', side: r.side, status: String(r.status) };
    if (r.status !== 200) tags.error_code = '1502';
    const data = { time: new Date(r.sent + r.ms).toISOString(), value: r.ms, tags };
    lines.push(JSON.stringify({ metric: 'http_req_duration', type: 'Point', data }));
  }
  const file = join(dir, 'k6.json.gz');
  writeFileSync(file, gzipSync(`${lines.join('\n')}\n`));
  return file;
}

function eventsFile() {
  const file = join(dir, 'events.jsonl');
  const kills = KILLS.map((t, i) => ({ ts: T0 + t, type: 'pod-killed', pod: `p${i}` }));
  writeFileSync(
    file,
    [{ ts: T0 + 1, type: 'fault-start', fault: 'pod-kill' }, ...kills].map((e) => JSON.stringify(e)).join('\n'),
  );
  return file;
}

test("the same timeline through Vegeta's reader and k6's: the same per-kill figures on each side", async () => {
  const requests = timeline();
  const events = eventsFile();
  const [vegeta, k6] = [vegetaFile(requests), k6File(requests)];
  for (const side of ['a', 'b']) {
    const v = await ingest({ output: vegeta, format: 'vegeta', events, side, sides: URL });
    const k = await ingest({ output: k6, format: 'k6', events, side });
    assert.deepEqual(v.faultCost.perAction, k.faultCost.perAction, `side ${side}`);
  }
});

test("a hiccup of the load generator shared by both sides is no side's failover; percentiles keep it", async () => {
  const events = eventsFile();
  const file = vegetaFile(timeline());
  const [a, b] = await Promise.all(
    ['a', 'b'].map((side) => ingest({ output: file, format: 'vegeta', events, side, sides: URL })),
  );
  const stalls = (r) => r.faultCost.perAction.map((x) => x.stallMs);
  // Kill 1 hung side a only; kill 2 both, b longer; kill 3 (the hiccup's) neither.
  assert.deepEqual(
    stalls(a).map((x) => x > 0),
    [true, true, false],
  );
  assert.deepEqual(
    stalls(b).map((x) => x > 0),
    [false, true, false],
  );
  assert.ok(stalls(b)[1] > stalls(a)[1]);
  // Counted from the schedule (as the ingest did before), the 150 ms late sends would have
  // made kill 3 a both-sided stall; the users still waited them: the percentiles say so.
  assert.equal(a.latency.source.schedule.lateSends, 40);
  assert.ok(a.latency.percentiles.max >= 150, String(a.latency.percentiles.max));
});
