// The measurement chain against the real thing: the real engine, real nginx, real faults.
// On k6: tailgate's percentiles must equal k6's own exact ones within HDR precision, and
// its counts must equal k6's counts. On Vegeta (no k6 release here): they must equal the
// exact ones of its raw results, each request's latency counted from its scheduled send
// (recomputed here from the raw lines, independently of ingest), and its errors the
// non-2xx results Vegeta wrote.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import { runLocal } from '../helpers/local-run.js';
import { chooseEngine } from '../../src/engines/index.js';

const ENGINE = (await chooseEngine('auto')).name;
const onK6 = ENGINE === 'k6' ? {} : { skip: `k6 is not installed here: ${ENGINE} runs (its agreement test below)` };
const onVegeta = ENGINE === 'vegeta' ? {} : { skip: 'k6 runs here (its agreement tests above)' };

const QUANTILES = { p50: 0.5, p90: 0.9, p99: 0.99, 'p99.9': 0.999 };
// k6's summary then holds the measured phase's exact percentiles (k6/lib/options.js).
process.env.TG_EXACT_SUMMARY = '1';

function exactSamples(file) {
  // Independent of the streaming parser on purpose: JSON.parse every line.
  return gunzipSync(readFileSync(file))
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .filter((o) => o.type === 'Point' && o.metric === 'http_req_duration' && o.data.tags.phase === 'measure')
    .map((o) => o.data.value)
    .sort((a, b) => a - b);
}

async function runAndIngest(controller, scenario) {
  const { dir, run, result } = await runLocal({ controller, scenario });
  assert.equal(run.load.exitCode, 0, `k6 exit code (see ${dir}/k6.log)`);
  const summary = JSON.parse(readFileSync(join(dir, 'k6-summary.json'), 'utf8'));
  return { dir, result, summary };
}

test(
  'agreement: percentiles and counts equal k6 summary within HDR precision',
  { timeout: 60_000, ...onK6 },
  async () => {
    const { dir, result, summary } = await runAndIngest(
      { variant: 'nginx-dynamic' },
      { script: 'steady', rate: 300, duration: '4s', warmup: '1s', replicas: 2, payload: '1KiB' },
    );
    const k6 = summary.metrics['http_req_duration{phase:measure}'].values;
    const sorted = exactSamples(join(dir, 'k6.json.gz'));
    assert.equal(result.latency.count, k6.count);
    assert.equal(result.latency.count, sorted.length);
    assert.ok(sorted.length >= 1100, `enough samples (${sorted.length})`);
    assert.equal(result.wholeRun.requests, summary.metrics.http_reqs.values.count);
    for (const [name, q] of Object.entries(QUANTILES)) {
      const h = (sorted.length - 1) * q;
      const lo = sorted[Math.max(0, Math.floor(h) - 1)];
      const hi = sorted[Math.min(sorted.length - 1, Math.ceil(h) + 1)];
      const ours = result.latency.percentiles[name];
      const theirs = k6[`p(${name.slice(1)})`];
      // HDR keeps 3 significant digits (<= 0.1%) and reports a bucket's upper edge;
      // k6 interpolates between neighbouring ranks: allow one rank either side.
      assert.ok(
        ours >= lo * 0.999 - 0.001 && ours <= hi * 1.001 + 0.001,
        `${name}: tailgate ${ours} outside exact ranks [${lo}, ${hi}]`,
      );
      assert.ok(
        Math.abs(ours - theirs) <= Math.max(theirs * 0.002 + 0.001, hi - lo),
        `${name}: tailgate ${ours} vs k6 ${theirs}`,
      );
    }
    assert.ok(Math.abs(result.latency.percentiles.max - k6.max) <= k6.max * 0.001 + 0.001, 'max');
  },
);

test(
  'agreement: 502s from killed upstreams land in http502 and errors equal k6 failures',
  { timeout: 60_000, ...onK6 },
  async () => {
    const { result, summary } = await runAndIngest(
      { variant: 'nginx-reload', retries: 'off' },
      {
        script: 'steady',
        rate: 300,
        duration: '4s',
        warmup: '1s',
        replicas: 3,
        faults: [{ type: 'pod-kill', every: '1s', replaceAfter: '500ms' }],
      },
    );
    const failed = summary.metrics['http_req_failed{phase:measure}']?.values?.passes;
    assert.ok(result.errors.byClass.http502 > 0, `502s recorded: ${JSON.stringify(result.errors.byClass)}`);
    const k6Failed = summary.metrics.http_req_failed.values.passes;
    assert.equal(result.wholeRun.errors.total, k6Failed, 'error total equals k6 http_req_failed');
    if (failed !== undefined) assert.equal(result.errors.total, failed);
    assert.ok(
      result.events.some((e) => e.type === 'pod-killed'),
      'kill events merged',
    );
  },
);

// Vegeta's raw results, read with JSON.parse line by line: the measured phase's latencies
// from each request's scheduled send (seq 0 anchors its attack; k6 stamps no schedule, and
// Vegeta's own would hide a late send), and its non-2xx results.
function vegetaExact(file) {
  const rows = gunzipSync(readFileSync(file))
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  const [, hits, perMs, warmupMs, windowMs] = /rate=(\d+)\/(\d+)ms warmup=(\d+)ms window=(\d+)ms/
    .exec(rows[0].attack)
    .map(Number);
  const t0 = Date.parse(rows.find((r) => r.seq === 0).timestamp.replace(/\.(\d{3})\d*Z$/, '.$1Z'));
  // The digits after the millisecond: a fraction of one (Go trims trailing zeros).
  const frac = (r) => Number(`0.${(/\.(\d+)Z$/.exec(r.timestamp)?.[1] ?? '0').slice(3)}`);
  const start0 = t0 + frac(rows.find((r) => r.seq === 0));
  const measured = rows.filter((r) => {
    const due = (r.seq * perMs) / hits;
    return due >= warmupMs && due < windowMs;
  });
  const ms = measured
    .map((r) => {
      const start = Date.parse(r.timestamp.replace(/\.(\d{3})\d*Z$/, '.$1Z')) + frac(r);
      return r.latency / 1e6 + Math.max(0, start - (start0 + (r.seq * perMs) / hits));
    })
    .sort((a, b) => a - b);
  return { ms, errors: measured.filter((r) => r.code < 200 || r.code >= 400).length };
}

test(
  'agreement (Vegeta): percentiles from the scheduled send and error counts equal its raw results within HDR precision',
  { timeout: 60_000, ...onVegeta },
  async () => {
    const { dir, run, result } = await runLocal({
      controller: { variant: 'nginx-reload', retries: 'off' },
      scenario: {
        script: 'steady',
        rate: 300,
        duration: '4s',
        warmup: '1s',
        replicas: 3,
        payload: '1KiB',
        faults: [{ type: 'pod-kill', every: '1s', replaceAfter: '500ms' }],
      },
    });
    assert.equal(run.load.exitCode, 0, `vegeta exit code (see ${dir}/vegeta.log)`);
    const exact = vegetaExact(run.load.output);
    assert.equal(result.latency.count, exact.ms.length);
    assert.equal(result.requests.total, 1200, '300/s × 4 s, exactly the schedule');
    for (const [name, q] of Object.entries(QUANTILES)) {
      const h = (exact.ms.length - 1) * q;
      const lo = exact.ms[Math.max(0, Math.floor(h) - 1)];
      const hi = exact.ms[Math.min(exact.ms.length - 1, Math.ceil(h) + 1)];
      const ours = result.latency.percentiles[name];
      assert.ok(
        ours >= lo * 0.999 - 0.001 && ours <= hi * 1.001 + 0.001,
        `${name}: tailgate ${ours} outside exact ranks [${lo}, ${hi}]`,
      );
    }
    assert.ok(Math.abs(result.latency.percentiles.max - exact.ms.at(-1)) <= exact.ms.at(-1) * 0.001 + 0.001, 'max');
    assert.equal(result.errors.total, exact.errors, 'error total equals the non-2xx results');
    assert.ok(result.errors.byClass.http502 > 0, `502s recorded: ${JSON.stringify(result.errors.byClass)}`);
    assert.ok(
      result.events.some((e) => e.type === 'pod-killed'),
      'kill events merged',
    );
  },
);
