// The gate proves it can fail, on the real local target: A/A stays green, a
// canary with injected backend delay and one with injected errors go red, and a
// rate k6 cannot deliver comes out inconclusive.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyDefaults } from '../../src/config/defaults.js';
import { compareCell } from '../../src/compare/cell.js';
import { runLocal } from '../helpers/local-run.js';

const gate = applyDefaults({ controllers: {}, scenarios: {}, matrices: {} }).gate;
const steady = { script: 'steady', rate: 400, duration: '5s', warmup: '1s', replicas: 2 };

async function measure(controller, scenario = steady) {
  return (await runLocal({ controller: { variant: 'nginx-dynamic', ...controller }, scenario })).rep;
}

test('gate proof on the local target', { timeout: 180_000 }, async (t) => {
  const a1 = await measure({});
  const a2 = await measure({});

  await t.test('A/A stays green', () => {
    const v = compareCell({ cell: 'a/a', base: [a1], head: [a2], gate });
    assert.equal(v.verdict, 'pass', JSON.stringify(v.reasons));
  });

  await t.test('injected backend delay (p99 up by well over 30%) goes red', async () => {
    const slow = await measure({ backendDelay: '4ms' });
    const v = compareCell({ cell: 'canary/delay', base: [a1], head: [slow], gate });
    const p99 = v.metrics.find((m) => m.metric === 'p99');
    assert.ok(p99.ratio >= 1.3, `p99 x${p99.ratio}`);
    assert.equal(v.verdict, 'regression', JSON.stringify(v.reasons));
  });

  await t.test('injected backend errors go red', async () => {
    const failing = await measure({ backendErrorRate: 0.02 });
    const v = compareCell({ cell: 'canary/errors', base: [a1], head: [failing], gate });
    assert.equal(v.verdict, 'regression', JSON.stringify(v.reasons));
    assert.match(v.reasons.join(), /http5xx 0 → \d+/);
  });

  await t.test('a rate the harness cannot deliver is inconclusive, not a verdict', async () => {
    // 2 VUs against a 50 ms backend deliver at most ~40 requests/s of the 400 asked.
    const overloaded = await measure({ backendDelay: '50ms' }, { ...steady, vus: 2, maxVus: 2 });
    const v = compareCell({ cell: 'overload', base: [a1], head: [overloaded], gate });
    assert.equal(v.verdict, 'inconclusive');
    assert.match(v.reasons.join(), /dropped iterations/);
  });
});
