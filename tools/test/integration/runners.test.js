// Several runners on the local target (k6's execution segments of one scenario, or Vegeta
// attackers at rate/n each, whichever engine runs here): the
// merged result equals the result of the union of their samples, exactly; a broken
// runner makes the cell inconclusive, naming it — never a result of the survivors.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { gunzipSync, gzipSync } from 'node:zlib';
import { ingest } from '../../src/ingest/ingest.js';
import { ingestRunners } from '../../src/ingest/runners.js';
import { runCell } from '../../src/targets/local/driver.js';
import { makeCell } from '../helpers/cells.js';
import { scratchDir } from '../helpers/scratch.js';

const scenario = { script: 'steady', rate: 300, duration: '3s', warmup: '1s', replicas: 2, runners: 3 };
const meta = { rate: 300, durationMs: 3000 };
let run;
let dir;
let format;

test('runners: 3 runners together deliver exactly the configured rate; the merge equals the union of their samples', async () => {
  dir = scratchDir('tg-runners-');
  run = await runCell({ cell: makeCell({ controller: { variant: 'nginx-dynamic' }, scenario }), cellDir: dir });
  assert.equal(run.load.runners.length, 3);
  format = run.load.format ?? 'k6';
  const merged = await ingestRunners(run.load.runners, { meta, format });
  // Iterations k6 could not start in time (a loaded machine: make test runs files in
  // parallel) are dropped, not lost: sent + dropped is the schedule the segments split.
  const scheduled = merged.requests.total + merged.load.droppedIterations;
  assert.ok(
    Math.abs(scheduled - 900) <= 1,
    `constant arrival rate split in segments: 300/s × 3 s in all (k6 counts the start), got ${merged.requests.total} sent + ${merged.load.droppedIterations} dropped`,
  );
  assert.deepEqual(
    merged.meta.runners.map((r) => r.runner),
    [1, 2, 3],
  );
  // The union: every runner's lines in one file, ingested as one run.
  const lines = run.load.runners.flatMap((r) =>
    gunzipSync(readFileSync(r.output)).toString().split('\n').filter(Boolean),
  );
  const union = join(dir, 'union.json.gz');
  writeFileSync(union, gzipSync(`${lines.join('\n')}\n`));
  const one = await ingest({ output: union, meta, format });
  assert.equal(one.latency.histogram, merged.latency.histogram, 'the same histogram, bucket for bucket');
  assert.deepEqual(one.latency.percentiles, merged.latency.percentiles);
  assert.deepEqual(one.errors, merged.errors);
  assert.equal(one.load.droppedIterations, merged.load.droppedIterations);
});

test('runners: a runner whose output is truncated makes the cell inconclusive, naming it', async () => {
  const r2 = run.load.runners[1];
  const text = gunzipSync(readFileSync(r2.output)).toString();
  writeFileSync(r2.output, gzipSync(text.slice(0, Math.floor(text.length / 2))));
  await assert.rejects(
    ingestRunners(run.load.runners, { meta, format }),
    (err) => err.inconclusive === true && /runner 2\/3/.test(err.message),
  );
  const dead = run.load.runners.map((r, i) => (i === 2 ? { ...r, exitCode: 137, signal: 'SIGKILL' } : r));
  await assert.rejects(ingestRunners(dead, { meta, format }), /runner 3\/3 failed: (k6|vegeta) exited with code 137/);
});
