// What each fault action cost (ingest/fault-cost.js perAction): a slow or failed request
// is the cost of one action — the last one sent before it, else the first it was pending
// at — and a duet's two sides, read from one events file, list the same actions.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { AGGREGATE_LIMITS } from '../../src/ingest/aggregate.js';
import { faultCost, MAX_PER_ACTION } from '../../src/ingest/fault-cost.js';
import { ingest } from '../../src/ingest/ingest.js';
import { durationLine, k6File, metricLine } from '../helpers/k6-lines.js';
import { scratchDir } from '../helpers/scratch.js';

const T0 = Date.parse('2026-11-27T10:00:00Z');
const kill = (s) => ({ type: 'pod-killed', ts: T0 + s * 1000 });
const req = (sentS, ms) => ({ end: T0 + sentS * 1000 + ms, ms });

test('faultCost per action: a stall that outlasts the next kill stays its own kill’s; errors go where they were sent', () => {
  const events = [kill(0), kill(4), kill(8), { type: 'fault-start', ts: T0 - 1 }];
  const slow = [
    req(0.1, 5000), // kill 1's 5 s connect timeout, answered after kill 2
    req(-0.5, 2000), // pending at kill 1, sent before it
    req(4.2, 1200), // kill 2's
    req(20, 3000), // long after every kill, pending at none: nobody's
  ];
  const failed = [req(0.05, 10), req(4.1, 10), req(4.3, 5), req(-10, 1)];
  const c = faultCost(events, slow, failed.length, failed);
  assert.equal(c.actions, 3);
  assert.deepEqual(c.perAction, [
    { at: 0, type: 'pod-killed', errors: 1, heldUp: 3, exposureMs: 100, stallMs: 5100, hangMs: 5000 },
    { at: 4, type: 'pod-killed', errors: 2, heldUp: 3, exposureMs: 300, stallMs: 1400, hangMs: 1200 },
    { at: 8, type: 'pod-killed', errors: 0, heldUp: 0, exposureMs: 0, stallMs: 0, hangMs: 0 },
  ]);
  // Held up: kill 1's 5 s request, the one pending at it and its fast 502 (3); its
  // exposure runs to the last one sent after it (0.1 s). Kill 2's last was sent at 4.3 s.
  // The run's summary keeps its own rule: kill 2's request, sent 4.2 s after kill 1, is
  // also kill 1's there (a 5.4 s stall).
  assert.equal(c.longestStallMs, 5400);
  assert.equal(c.longestHangMs, 5000);
  assert.equal(c.errorsPerAction, 1.33);
});

test('faultCost per action: without every failed request’s time, each action’s errors, held-up requests and exposure are left out, not guessed', () => {
  const c = faultCost([kill(0)], [req(0.2, 1500)], 7, null);
  // Nor what they held up: a failed request not kept could be the last one it held up.
  assert.deepEqual(c.perAction, [{ at: 0, type: 'pod-killed', stallMs: 1700, hangMs: 1500 }]);
});

test('faultCost per action: stalls at the lower cut — a 300 ms bump counts, a 50 ms one does not; the summary stays at 1 s', () => {
  const events = [kill(0), kill(5)];
  // What aggregate.js keeps: requests of lagMs (100 ms) or more; the 50 ms one never reaches it.
  const all = [req(0.2, 300), req(1.1, 250), req(5.3, 50)];
  const lag = {
    requests: all.filter((r) => r.ms >= AGGREGATE_LIMITS.lagMs),
    cutMs: AGGREGATE_LIMITS.lagMs,
    complete: true,
  };
  const c = faultCost(events, [], 0, [], lag);
  assert.deepEqual(
    c.perAction.map((a) => [a.stallMs, a.hangMs]),
    [
      [1350, 300],
      [0, 0],
    ],
  );
  assert.equal(c.perActionCutMs, 100);
  assert.equal(c.perActionTruncated, undefined);
  // No request of a second or more: the run's summary (history, run table) says no stall.
  assert.equal(c.longestStallMs, 0);
  assert.equal(c.longestHangMs, 0);
  // Without a lower cut's list, each action's stall is the slow list's (1 s), as before.
  assert.equal(faultCost(events, [], 0, []).perActionCutMs, AGGREGATE_LIMITS.slowMs);
});

test('faultCost per action: the exposure runs to the send of the last request a kill held up — slow from its send, or failed', () => {
  const sent = (s, ms) => ({ sent: T0 + s * 1000, end: T0 + s * 1000 + ms, ms });
  // Kill 1 holds up a 300 ms request, then one that times out (10 s), then fails one fast:
  // the exposure is the fast failure's send (0.9 s), the stall the timeout's end.
  const lag = { requests: [sent(0.2, 300), sent(0.6, 10_000)], cutMs: 100, complete: true };
  const failed = [sent(0.9, 2), sent(5.1, 1)];
  const c = faultCost([kill(0), kill(5)], [], 2, failed, lag);
  assert.deepEqual(c.perAction, [
    { at: 0, type: 'pod-killed', errors: 1, heldUp: 3, exposureMs: 900, stallMs: 10_600, hangMs: 10_000 },
    { at: 5, type: 'pod-killed', errors: 1, heldUp: 1, exposureMs: 100, stallMs: 0, hangMs: 0 },
  ]);
});

test('faultCost per action: a lower cut’s list that overflowed is flagged, not read as whole', () => {
  const c = faultCost([kill(0)], [], 0, [], { requests: [req(0.2, 300)], cutMs: 100, complete: false });
  assert.equal(c.perActionTruncated, true);
  assert.equal(c.perAction[0].stallMs, 500);
});

test('faultCost per action: bounded — the first 1000 actions, the rest counted', () => {
  const events = Array.from({ length: MAX_PER_ACTION + 200 }, (_, i) => kill(i * 0.1));
  const c = faultCost(events, [], 0, []);
  assert.equal(c.perAction.length, MAX_PER_ACTION);
  assert.equal(c.perActionOmitted, 200);
  assert.equal(c.actions, MAX_PER_ACTION + 200);
});

test('ingest: a duet’s sides list the same kills, each with its own stalls and errors (schema-checked)', async () => {
  const dir = scratchDir('tg-fault-cost-');
  const sided = (line, side) => {
    const o = JSON.parse(line);
    o.data.tags.side = side;
    return JSON.stringify(o);
  };
  const lines = [metricLine('http_req_duration')];
  for (let i = 0; i < 1200; i++)
    for (const side of ['a', 'b']) lines.push(sided(durationLine({ ts: T0 + i * 10, ms: 2 }), side));
  // Side a stalls 5 s at the first kill, side b at the second; b's 502 at the first.
  lines.push(sided(durationLine({ ts: T0 + 2050 + 5000, ms: 5000 }), 'a'));
  lines.push(sided(durationLine({ ts: T0 + 6050 + 5000, ms: 5000 }), 'b'));
  lines.push(sided(durationLine({ ts: T0 + 2100, ms: 3, status: '502', errorCode: '1502' }), 'b'));
  const k6 = join(dir, 'k6.json.gz');
  writeFileSync(k6, k6File(lines));
  const events = join(dir, 'events.jsonl');
  writeFileSync(events, [kill(2), kill(6)].map((e) => JSON.stringify({ ...e, pod: 'p' })).join('\n'));
  const [a, b] = await Promise.all(['a', 'b'].map((side) => ingest({ output: k6, events, side })));
  assert.deepEqual(
    a.faultCost.perAction.map((x) => x.at),
    b.faultCost.perAction.map((x) => x.at),
  );
  assert.deepEqual(
    a.faultCost.perAction.map((x) => [x.stallMs, x.errors]),
    [
      [5050, 0],
      [0, 0],
    ],
  );
  assert.deepEqual(
    b.faultCost.perAction.map((x) => [x.stallMs, x.errors]),
    [
      [0, 1],
      [5050, 0],
    ],
  );
});
