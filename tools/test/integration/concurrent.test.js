// Concurrent A/B on the local target: two data planes in front of the same pods, k6
// alternating requests; the raw output splits exactly into the two sides.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ingest } from '../../src/ingest/ingest.js';
import { runCell } from '../../src/targets/local/driver.js';
import { makeCell } from '../helpers/cells.js';

test('concurrent A/B: both data planes serve at once, each side gets the configured rate, nothing is lost', async () => {
  const scenario = { script: 'steady', rate: 200, duration: '3s', warmup: '1s', replicas: 2 };
  const cell = makeCell({ controller: { variant: 'nginx-dynamic' }, scenario });
  const head = makeCell({ controller: { variant: 'haproxy-runtime' }, scenario });
  cell.concurrent = { controller: head.controller, tuning: head.tuning };
  const dir = mkdtempSync(join(tmpdir(), 'tg-ab-'));
  const run = await runCell({ cell, cellDir: dir });
  assert.equal(run.k6.exitCode, 0);
  assert.deepEqual(run.concurrent.sides, ['a', 'b']);
  assert.notEqual(run.concurrent.urls[0], run.concurrent.urls[1]);
  const k6Output = join(dir, 'k6.json.gz');
  const meta = { rate: 200, durationMs: 3000 };
  const [a, b, all] = await Promise.all([ingest({ k6Output, meta, side: 'a' }), ingest({ k6Output, meta, side: 'b' }), ingest({ k6Output, meta })]);
  assert.equal(a.requests.total + b.requests.total, all.requests.total, 'every request belongs to one side');
  assert.ok(Math.abs(a.requests.total - b.requests.total) <= 1, `${a.requests.total} vs ${b.requests.total}: strict alternation`);
  for (const side of [a, b]) assert.ok(side.load.achievedRatio > 0.97, `achieved ${side.load.achievedRate}/s of 200/s`);
  assert.ok(run.concurrent.resources[0].cpuSeconds > 0 && run.concurrent.resources[1].cpuSeconds > 0, 'both proxies did work');
});
