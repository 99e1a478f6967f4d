// tools/perf/reingest.js shiftExposure: the re-gating's change laid on raw Vegeta requests
// (seq-prs.js --exposure-shift). Each kill's exposure on the head becomes factor × as long,
// the head's requests sent in the added window held up at the rate they were within it,
// each like one of the kill's own last held-up requests; the base and everything else as
// recorded. Read back through the ingest, the head's per-kill figures say so.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { shiftExposure } from '../../perf/reingest.js';
import { ingest } from '../../src/ingest/ingest.js';
import { scratchDir } from '../helpers/scratch.js';

const dir = scratchDir('tg-exposure-shift-');
after(() => rmSync(dir, { recursive: true, force: true }));

const T0 = Date.UTC(2026, 10, 28, 4, 0, 0);
const URL = { a: 'http://127.0.0.1:18080/0KiB', b: 'http://127.0.0.1:18081/0KiB' };
const KILL = 4000;

// 200/s alternating a and b over 10 s; at the kill both sides send every fourth request to
// the dead pod for 400 ms: a 502 at once, the last one of each side a 10 s timeout.
function vegeta() {
  const lines = [];
  for (let seq = 0; seq <= 2000; seq++) {
    const due = seq * 5;
    const side = seq % 2 ? 'b' : 'a';
    const dead = due >= KILL + 20 && due <= KILL + 400 && seq % 4 < 2;
    const last = dead && due > KILL + 380;
    lines.push(
      JSON.stringify({
        attack: 'tailgate rate=200/1000ms warmup=0ms window=10000ms',
        seq,
        code: dead && !last ? 502 : last ? 0 : 200,
        timestamp: new Date(T0 + due).toISOString(),
        latency: (last ? 10_000 : dead ? 1 : 2) * 1e6,
        error: last ? 'Get "…": net/http: request canceled (Client.Timeout exceeded)' : dead ? '502 Bad Gateway' : '',
        url: URL[side],
      }),
    );
  }
  return `${lines.join('\n')}\n`;
}

test('shiftExposure: the head exposed ×1.5 longer, as many more requests held up, the base as recorded', async () => {
  const events = [{ ts: T0 + KILL, type: 'pod-killed', pod: 'p' }];
  const eventsFile = join(dir, 'events.jsonl');
  writeFileSync(eventsFile, events.map((e) => JSON.stringify(e)).join('\n'));
  const text = vegeta();
  const shifted = shiftExposure(text, { headUrl: URL.b, events, factor: 1.5 });
  const cost = async (t, side) => {
    const file = join(dir, `v-${side}-${t === text ? 'a' : 'b'}.json`);
    writeFileSync(file, t);
    const r = await ingest({ output: file, format: 'vegeta', events: eventsFile, side, sides: URL });
    return r.faultCost.perAction[0];
  };
  const [before, after_, base] = [await cost(text, 'b'), await cost(shifted, 'b'), await cost(shifted, 'a')];
  assert.deepEqual(base, await cost(text, 'a'), 'the base as recorded');
  assert.ok(
    Math.abs(after_.exposureMs / before.exposureMs - 1.5) < 0.05,
    `${before.exposureMs} → ${after_.exposureMs}`,
  );
  assert.ok(Math.abs(after_.heldUp / before.heldUp - 1.5) < 0.15, `${before.heldUp} → ${after_.heldUp}`);
  // The last added request is like the kill's last held-up one: a 10 s timeout.
  assert.ok(after_.stallMs > 10_000 + after_.exposureMs - 10, String(after_.stallMs));
  assert.equal(shiftExposure(text, { headUrl: URL.b, events, factor: 1 }), text);
});
