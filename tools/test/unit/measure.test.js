import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { EventLog } from '../../src/run/event-log.js';
import { measureWithFaults } from '../../src/run/measure.js';
import { scratchDir } from '../helpers/scratch.js';

// A pods stand-in that records what the fault schedule does to it.
function fakePods() {
  const actions = [];
  return {
    actions,
    random: () => ({ name: 'p' }),
    remove: async () => actions.push(Date.now()),
    add: async () => {},
  };
}

test('measure: faults stop when k6 fails (no pod deleted after the load ended, on any target)', async () => {
  const pods = fakePods();
  const events = new EventLog(join(scratchDir('tg-measure-'), 'events.jsonl'));
  const scenario = { warmup: '0s', faults: [{ type: 'pod-kill', every: '100ms', replaceAfter: '50ms' }] };
  const failing = () => new Promise((_, reject) => setTimeout(() => reject(new Error('k6 timed out')), 1400));
  await assert.rejects(measureWithFaults({ scenario, pods, events, startLoad: failing }), /k6 timed out/);
  const ended = Date.now();
  const seen = pods.actions.length;
  assert.ok(seen > 0, 'the fault ran while k6 did');
  await new Promise((r) => setTimeout(r, 400));
  assert.equal(pods.actions.length, seen, 'no fault action after the load ended');
  assert.ok(pods.actions.every((t) => t <= ended));
});
