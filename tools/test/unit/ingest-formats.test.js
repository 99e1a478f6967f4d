// tailgate ingest --format vegeta|fortio on files made here: what each format's fields
// become (statuses → error classes, fortio's buckets → quantiles and their bounds), and
// hostile files refused naming the file, line or field — never echoing the content.
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, test } from 'node:test';
import { ingest } from '../../src/ingest/ingest.js';
import { resultRep } from '../../src/result/load.js';
import { workloadDiff } from '../../src/result/workload.js';
import { runCli } from '../helpers/cli.js';
import { scratchDir } from '../helpers/scratch.js';

const dir = scratchDir('tg-formats-');
after(() => rmSync(dir, { recursive: true, force: true }));
const file = (name, text) => {
  const f = join(dir, name);
  writeFileSync(f, text);
  return f;
};
const SECRET = 'hunter2-do-not-echo';
const t0 = Date.parse('2026-11-26T10:00:00Z');

// 1000 requests over 10 s at 1..1000 µs × 10 (so p99 is exactly 9.9 ms), 3 of them failed.
const vegetaRows = () =>
  Array.from({ length: 1000 }, (_, i) => ({
    ts: t0 + i * 10,
    latencyNs: (i + 1) * 10_000,
    code: i === 10 ? 503 : i === 20 || i === 30 ? 0 : 200,
    error:
      i === 20
        ? 'Get "http://x/": dial tcp: connect: connection refused'
        : i === 30
          ? 'net/http: timeout, "awaiting" headers'
          : '',
  }));
const rfc3339 = (ms) => new Date(ms).toISOString().replace('Z', '123456Z'); // nanoseconds, as Vegeta writes
const csvQuote = (s) => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

test('vegeta: JSON and CSV encodings give one result — every sample, errors by class', async () => {
  const rows = vegetaRows();
  const json = file(
    'v.json',
    rows
      .map((r) =>
        JSON.stringify({
          attack: '',
          seq: 0,
          code: r.code,
          timestamp: rfc3339(r.ts),
          latency: r.latencyNs,
          bytes_out: 0,
          bytes_in: 0,
          error: r.error,
          body: null,
          method: 'GET',
          url: 'http://x/',
          headers: null,
        }),
      )
      .join('\n') + '\n',
  );
  const csv = file(
    'v.csv.gz',
    gzipSync(
      rows.map((r) => `${r.ts}123456,${r.code},${r.latencyNs},0,0,${csvQuote(r.error)},,,0,GET,http://x/,`).join('\n') +
        '\n',
    ),
  );
  const a = await ingest({ output: json, format: 'vegeta', meta: { rate: 100 } });
  const b = await ingest({ output: csv, format: 'vegeta', meta: { rate: 100 } });
  resultRep(a, 'a');
  assert.equal(a.requests.total, 1000);
  // The 990th and 500th samples, as HDR keeps them (3 significant digits, upper edge).
  assert.ok(Math.abs(a.latency.percentiles.p99 - 9.9) <= 0.01, `p99 ${a.latency.percentiles.p99}`);
  assert.ok(Math.abs(a.latency.percentiles.p50 - 5) <= 0.005, `p50 ${a.latency.percentiles.p50}`);
  assert.deepEqual(Object.fromEntries(Object.entries(a.errors.byClass).filter(([, n]) => n)), {
    http503: 1,
    refused: 1,
    timeout: 1,
  });
  assert.equal(a.load.achievedRate, 100.1, 'requests over the span Vegeta sent them in (9.99 s)');
  assert.deepEqual(a.latency.source, { tool: 'vegeta', exact: true });
  assert.ok(a.timeline.length >= 10, 'a row per second');
  assert.deepEqual(b.latency.percentiles, a.latency.percentiles);
  assert.deepEqual(b.errors, a.errors);
});

const fortioDoc = (over = {}) => ({
  StartTime: '2026-11-26T10:00:00.5Z',
  RequestedQPS: '200',
  ActualDuration: 10_000_000_000,
  NumThreads: 4,
  Resolution: 0.001,
  Version: '1.68.2',
  Labels: SECRET,
  RetCodes: { 200: 1990, 503: 6, '-1': 4 },
  DurationHistogram: {
    Count: 2000,
    Data: [
      { Start: 0.0005, End: 0.001, Count: 100 },
      { Start: 0.001, End: 0.002, Count: 1700 },
      { Start: 0.002, End: 0.003, Count: 180 },
      { Start: 0.003, End: 0.0042, Count: 20 },
    ],
  },
  ...over,
});

test('fortio: requests spread over their buckets, each quantile with its bucket as the bound, no timeline', async () => {
  const r = await ingest({ output: file('f.json', JSON.stringify(fortioDoc())), format: 'fortio' });
  resultRep(r, 'fortio');
  assert.equal(r.requests.total, 2000);
  assert.deepEqual(Object.fromEntries(Object.entries(r.errors.byClass).filter(([, n]) => n)), {
    http503: 6,
    transport: 4,
  });
  const { bounds } = r.latency.source;
  assert.deepEqual(bounds.p50, [1, 2]);
  assert.deepEqual(bounds.p90, [1, 2]);
  assert.deepEqual(bounds.p99, [2, 3]);
  assert.deepEqual(bounds['p99.9'], [3, 4.2]);
  // rank 1980 of 2000 is the last of the third bucket's 180: 2 + 179.5/180 ms.
  assert.ok(Math.abs(r.latency.percentiles.p99 - (2 + 179.5 / 180)) < 0.003, `p99 ${r.latency.percentiles.p99}`);
  for (const [q, [lo, hi]] of Object.entries(bounds))
    assert.ok(r.latency.percentiles[q] >= lo && r.latency.percentiles[q] <= hi * 1.001, q);
  assert.deepEqual(r.timeline, []);
  assert.equal(r.load.targetRate, 200);
  assert.equal(r.load.achievedRate, 200);
  assert.deepEqual(r.meta.workload, { tool: 'fortio', rate: 200, connections: 4, resolutionS: 0.001 });
  assert.ok(!JSON.stringify(r).includes(SECRET), "fortio's labels are not copied");
});

test('a fortio or Vegeta run is never like with like with a k6 baseline (the workload names the tool)', () => {
  const k6 = { rate: 200, k6: 'v1.8.1', scripts: 'a'.repeat(64) };
  assert.deepEqual(workloadDiff(k6, { tool: 'fortio', rate: 200 }), ['load tool k6 → fortio']);
  assert.deepEqual(workloadDiff({ tool: 'vegeta' }, { tool: 'vegeta' }), []);
  assert.deepEqual(workloadDiff({ tool: 'fortio', rate: 200 }, { tool: 'vegeta', rate: 100 }), [
    'load tool fortio → vegeta',
    'rate 200 → 100',
  ]);
});

const refuses = async (name, text, format, why) => {
  const f = file(name, text);
  await assert.rejects(
    ingest({ output: f, format }),
    (err) => {
      const all = `${err.message}\n${(err.details ?? []).join('\n')}`;
      assert.match(all, why);
      assert.ok(all.includes(f), `names the file: ${all}`);
      assert.ok(!all.includes(SECRET), `echoes the file: ${all}`);
      return err.name === 'InputError' || err.constructor.name === 'InputError';
    },
    name,
  );
};

test('hostile Vegeta files: refused naming line and field, never echoed', async () => {
  const ok = (o) => JSON.stringify({ code: 200, timestamp: '2026-11-26T10:00:00Z', latency: 1000, error: '', ...o });
  await refuses('v1', `${SECRET}\n`, 'vegeta', /:1: not Vegeta results/);
  await refuses('v2', `${ok()}\n{"${SECRET}":\n`, 'vegeta', /:2: not JSON/);
  await refuses('v3', `${ok({ latency: -5 })}\n`, 'vegeta', /:1: latency: expected nanoseconds/);
  await refuses('v4', `${ok({ code: SECRET })}\n`, 'vegeta', /:1: code: expected an HTTP status code/);
  await refuses('v5', `${ok({ timestamp: SECRET })}\n`, 'vegeta', /:1: bad timestamp|timestamp/);
  await refuses('v6', `${ok({ body: 'A'.repeat(1 << 21) })}\n`, 'vegeta', /:1: line longer than/);
  await refuses('v7', `1795722622543398589,200,"${SECRET}\n`, 'vegeta', /:1: unterminated quoted CSV field/);
  await refuses('v8', '\n\n', 'vegeta', /no Vegeta results/);
});

test('hostile fortio files: every problem named at once, never echoed', async () => {
  await refuses('f1', JSON.stringify({ [SECRET]: 1 }), 'fortio', /not fortio's JSON result/);
  const bad = fortioDoc({
    RetCodes: { [SECRET]: 3, 200: 2000 },
    ActualDuration: -1,
    DurationHistogram: {
      Count: 2001,
      Data: [
        { Start: 0.002, End: 0.001, Count: 1 },
        { Start: 0.001, End: 0.002, Count: 1.5 },
        { Start: 0.0015, End: 0.003, Count: 2000 },
      ],
    },
  });
  const f = file('f2', JSON.stringify(bad));
  const err = await ingest({ output: f, format: 'fortio' }).catch((e) => e);
  const details = err.details.join('\n');
  for (const why of [
    /Data\[0\]: Start and End/,
    /Data\[1\]\.Count: expected a non-negative integer/,
    /Data\[2\]: overlaps the bucket before it/,
    /RetCodes: a key is not an HTTP status code/,
    /ActualDuration: expected nanoseconds/,
  ])
    assert.match(details, why);
  assert.ok(!`${err.message}${details}`.includes(SECRET));
  await refuses(
    'f3',
    JSON.stringify(fortioDoc({ DurationHistogram: { Count: 1e12, Data: [{ Start: 0, End: 1, Count: 1e12 }] } })),
    'fortio',
    /Count: expected an integer from 0 to 1000000000/,
  );
});

test('tailgate ingest --format: refused names and k6-only flags are input errors (exit 2)', async () => {
  const out = join(dir, 'r.json');
  let r = await runCli(['ingest', join(dir, 'f.json'), '--format', 'nighthawk', '--out', out]);
  assert.equal(r.code, 2);
  assert.match(r.out, /--format: expected one of k6, vegeta, fortio/);
  r = await runCli(['ingest', join(dir, 'f.json'), '--format', 'fortio', '--summary', 's.json', '--out', out]);
  assert.equal(r.code, 2);
  assert.match(r.out, /not with --format fortio/);
  r = await runCli(['ingest', join(dir, 'f.json'), '--format', 'fortio', '--out', out]);
  assert.equal(r.code, 0, r.out);
  assert.match(r.out, /2000 requests, 10 errors/);
});
