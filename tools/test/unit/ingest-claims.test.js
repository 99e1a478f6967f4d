// What an input file claims must not decide what tailgate believes or how much it works
// (issue 51, classes 6 and 8). Provenance: a result's load tool is the one its reader
// read — --meta naming another is refused (exit 2). Work: bounded by the bytes read,
// never by a count or size the file states — gzip's inflation, blank lines, fortio's
// request counts. Work is asserted as records and bytes, never as wall time.
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { ingest } from '../../src/ingest/ingest.js';
import { readFortio } from '../../src/ingest/fortio.js';
import { decode, newHistogram, recordMs } from '../../src/result/histogram.js';
import { workloadDiff, workloadOf } from '../../src/result/workload.js';
import { durationLine, k6File, metricLine } from '../helpers/k6-lines.js';
import { runCli } from '../helpers/cli.js';
import { scratchDir } from '../helpers/scratch.js';

const dir = scratchDir('tg-claims-');
const file = (name, content) => {
  const f = join(dir, name);
  writeFileSync(f, content);
  return f;
};
const SECRET = 'hunter2-do-not-echo';
const T0 = Date.parse('2026-11-26T10:00:00Z');
const RULE = /a result names the load tool its reader read/;

const k6Lines = () => [
  metricLine('http_req_duration'),
  ...Array.from({ length: 200 }, (_, i) => durationLine({ ts: T0 + i * 10, ms: 1 + (i % 10) / 10 })),
];
const vegetaLine = (i, extra = {}) =>
  JSON.stringify({
    attack: '',
    seq: i,
    code: 200,
    timestamp: new Date(T0 + i * 10).toISOString().replace('Z', '123456Z'),
    latency: 1_000_000 + i * 1000,
    bytes_out: 0,
    bytes_in: 0,
    error: '',
    body: null,
    method: 'GET',
    url: 'http://x/',
    headers: null,
    ...extra,
  });
const fortioDoc = (buckets, codes) => ({
  StartTime: '2026-11-26T10:00:00Z',
  RequestedQPS: '200',
  ActualDuration: 10_000_000_000,
  NumThreads: 4,
  Resolution: 0.001,
  RetCodes: codes,
  DurationHistogram: { Count: buckets.reduce((a, b) => a + b.Count, 0), Data: buckets },
});

const outputs = {
  k6: () => file('k6.json.gz', k6File(k6Lines())),
  vegeta: () => file('v.json', `${Array.from({ length: 200 }, (_, i) => vegetaLine(i)).join('\n')}\n`),
  fortio: () =>
    file(
      'f.json',
      JSON.stringify(
        fortioDoc(
          [
            { Start: 0.001, End: 0.002, Count: 150 },
            { Start: 0.002, End: 0.003, Count: 50 },
          ],
          { 200: 200 },
        ),
      ),
    ),
};

// The meta.json a k6 run of tailgate writes beside its result (run/runner.js runMeta).
const k6RunMeta = {
  target: 'local',
  profile: 'local-2cpu',
  k6: 'v1.8.1',
  controller: { name: 'nginx-reload' },
  tuning: { name: 'default' },
  scenario: { name: 'steady', script: 'steady', rate: 200, duration: '10s' },
  workload: { duration: '10s', rate: 200, script: 'steady', k6: 'v1.8.1', scripts: 'a'.repeat(64) },
  rate: 200,
  durationMs: 10_000,
  repetition: 1,
};

async function refusedMeta(format, name, meta, field) {
  const metaFile = file(name, JSON.stringify(meta));
  const out = join(dir, `${name}.result.json`);
  const r = await runCli(['ingest', outputs[format](), '--format', format, '--meta', metaFile, '--out', out]);
  assert.equal(r.code, 2, `${format} ${name}: exit 2\n${r.out}`);
  assert.ok(r.out.includes(metaFile), `names the meta file: ${r.out}`);
  assert.ok(r.out.includes(field), `names ${field}: ${r.out}`);
  assert.match(r.out, RULE);
  assert.ok(!r.out.includes(SECRET), `echoes the meta file: ${r.out}`);
  assert.ok(!existsSync(out), 'nothing written');
}

for (const format of ['fortio', 'vegeta'])
  test(`provenance: ${format} output with a k6 run's meta.json is refused (exit 2), not passed as k6`, async () => {
    await refusedMeta(format, `${format}-k6-meta.json`, k6RunMeta, 'workload.k6, workload.scripts');
    await refusedMeta(format, `${format}-k6-version.json`, { rate: 200, k6: SECRET }, 'k6:');
    await refusedMeta(format, `${format}-tool.json`, { workload: { tool: SECRET } }, 'workload.tool');
  });

test('provenance: k6 output with meta naming another load tool is refused (exit 2); naming k6 is fine', async () => {
  await refusedMeta(
    'k6',
    'k6-fortio.json',
    { ...k6RunMeta, workload: { ...k6RunMeta.workload, tool: 'fortio' } },
    'workload.tool',
  );
  await refusedMeta('k6', 'k6-secret.json', { workload: { tool: SECRET } }, 'workload.tool');
  const out = join(dir, 'k6-ok.result.json');
  const metaFile = file(
    'k6-ok.json',
    JSON.stringify({ ...k6RunMeta, workload: { ...k6RunMeta.workload, tool: 'k6' } }),
  );
  const r = await runCli(['ingest', outputs.k6(), '--meta', metaFile, '--out', out]);
  assert.equal(r.code, 0, r.out);
  // A k6 run's own meta.json is its provenance: accepted as it was.
  const plain = await ingest({ output: outputs.k6(), meta: k6RunMeta });
  assert.deepEqual(plain.meta.workload, k6RunMeta.workload);
});

test("provenance: the result's tool is its reader's, whatever workload --meta gives (never like with like with k6)", async () => {
  const k6Workload = k6RunMeta.workload;
  for (const format of ['fortio', 'vegeta']) {
    // A workload with k6's fields but no k6 marks: without the reader's tool it compared
    // equal to the k6 baseline's.
    const meta = { rate: 200, workload: { duration: '10s', rate: 200, script: 'steady' } };
    const r = await ingest({ output: outputs[format](), format, meta });
    assert.equal(r.meta.workload.tool, format);
    assert.equal(r.latency.source.tool, format);
    assert.ok(workloadDiff(k6Workload, workloadOf(r)).includes(`load tool k6 → ${format}`), format);
    const own = await ingest({ output: outputs[format](), format, meta: { workload: { tool: format } } });
    assert.equal(own.meta.workload.tool, format);
    // No workload at all would let compare fall back to meta.scenario (and k6's fields).
    await assert.rejects(
      ingest({ output: outputs[format](), format, meta: { workload: null, scenario: k6RunMeta.scenario } }),
      (err) => err.name === 'InputError' && /workload: expected an object/.test(err.details.join('\n')),
    );
    await assert.rejects(ingest({ output: outputs[format](), format, meta: k6RunMeta }), (err) =>
      RULE.test(err.details.join('\n')),
    );
  }
});

// Work bounded by bytes read: gzip members of a repeated block inflate ~1000×.
function bomb(block, members) {
  const one = gzipSync(block, { level: 9 });
  return Buffer.concat(Array(members).fill(one));
}

function inflateRefusal(err, f) {
  const m = /inflates to more than (\d+)× its gzip bytes past the first (\d+) \((\d+) bytes from (\d+)\)/.exec(
    err.message,
  );
  assert.ok(m, err.message);
  assert.ok(err.message.includes(f), 'names the file');
  const [ratio, free, inflated, read] = m.slice(1).map(Number);
  assert.equal(ratio, 200);
  // Stopped within a chunk of the bound, long before the 256 MiB the members hold.
  assert.ok(inflated <= free + ratio * read + (1 << 18), `${inflated} from ${read}`);
  assert.ok(inflated < 64 << 20, `${inflated} bytes inflated`);
  return true;
}

test('bounded work: a gzip that inflates past 200× is refused — every member counts (k6 and Vegeta)', async () => {
  const filler = Buffer.from('{"metric":"x"}\n'.repeat((1 << 20) / 16));
  const k6 = file('bomb-k6.json.gz', Buffer.concat([k6File(k6Lines()), bomb(filler, 256)]));
  await assert.rejects(ingest({ output: k6 }), (err) => inflateRefusal(err, k6));

  const line = `${vegetaLine(0, { body: 'A'.repeat(100_000) })}\n`;
  const block = Buffer.from(line.repeat(Math.ceil((1 << 20) / line.length)));
  const head = gzipSync(`${Array.from({ length: 10 }, (_, i) => vegetaLine(i)).join('\n')}\n`);
  const v = file('bomb-v.json.gz', Buffer.concat([head, bomb(block, 256)]));
  await assert.rejects(ingest({ output: v, format: 'vegeta' }), (err) => inflateRefusal(err, v));

  // A legitimate file is far inside the bound.
  const fine = await ingest({ output: file('fine.json.gz', k6File(k6Lines())) });
  assert.equal(fine.requests.total, 200);
});

test('bounded work: blank lines are not read to the end of a gzip of them (Vegeta, k6)', async () => {
  const newlines = gzipSync(Buffer.alloc(16 << 20, 10), { level: 9 });
  const v = file('blank-v.json.gz', Buffer.concat([gzipSync(`${vegetaLine(0)}\n`), newlines]));
  await assert.rejects(ingest({ output: v, format: 'vegeta' }), (err) => {
    assert.match(err.message, /blank-v\.json\.gz:1002: more than 1000 blank lines: not Vegeta results/);
    return true;
  });
  const only = file('blank-only.json.gz', newlines);
  await assert.rejects(
    ingest({ output: only, format: 'vegeta' }),
    /blank-only\.json\.gz:1001: more than 1000 blank lines/,
  );
  const k6 = file('blank-k6.json.gz', Buffer.concat([k6File(k6Lines()), newlines]));
  await assert.rejects(ingest({ output: k6 }), /blank-k6\.json\.gz:1202: more than 1000 blank lines: not k6 output/);
  // A few, as from files joined by hand, are still read.
  const few = file('few.json', `${vegetaLine(0)}\n\n\n${vegetaLine(1)}\n\n`);
  assert.equal((await ingest({ output: few, format: 'vegeta' })).requests.total, 2);
});

test("bounded work: fortio's claimed request count sets no work — one record per histogram bin and status", async () => {
  const claims = [
    // Under the old per-request limit: 40M calls, one per claimed request.
    [[{ Start: 0.001, End: 0.002, Count: 40_000_000 }], { 200: 39_999_000, 503: 1000 }],
    // The most it accepts, spread over an hour: still ~23k bins.
    [
      [
        { Start: 0, End: 0.002, Count: 500_000_000 },
        { Start: 0.002, End: 3600, Count: 500_000_000 },
      ],
      { 200: 999_999_999, '-1': 1 },
    ],
  ];
  for (const [buckets, codes] of claims) {
    const f = file('claim.json', JSON.stringify(fortioDoc(buckets, codes)));
    let total = 0;
    let calls = 0;
    const read = await readFortio(f, {
      onRequest: () => assert.fail('a call per request'),
      onRequests: (s, k) => {
        calls++;
        total += k;
        assert.ok(Number.isInteger(k) && k > 0);
      },
    });
    assert.equal(
      total,
      buckets.reduce((a, b) => a + b.Count, 0),
    );
    assert.equal(read.records, calls);
    assert.ok(calls <= 25_000, `${calls} records`);
  }
  const big = await ingest({ output: file('claim.json', JSON.stringify(fortioDoc(...claims[1]))), format: 'fortio' });
  assert.equal(big.requests.total, 1_000_000_000);
  assert.equal(big.errors.byClass.transport, 1);

  const f = file('too-many.json', JSON.stringify(fortioDoc([{ Start: 0, End: 1, Count: 1e12 }], { 200: 1e12 })));
  await assert.rejects(ingest({ output: f, format: 'fortio' }), (err) =>
    /Count: expected an integer from 0 to 1000000000/.test(err.details.join('\n')),
  );
});

test("fortio's weighted records make the histogram one record per request made", async () => {
  const buckets = [
    { Start: 0.0005, End: 0.001, Count: 100 },
    { Start: 0.001, End: 0.002, Count: 1700 },
    { Start: 0.002, End: 0.003, Count: 180 },
    { Start: 0.003, End: 0.0042, Count: 20 },
    { Start: 0.5, End: 2.5, Count: 5000 },
  ];
  const r = await ingest({
    output: file('same.json', JSON.stringify(fortioDoc(buckets, { 200: 6990, 503: 6, '-1': 4 }))),
    format: 'fortio',
  });
  const h = newHistogram(3);
  for (const b of buckets)
    for (let i = 0; i < b.Count; i++) recordMs(h, (b.Start + ((i + 0.5) / b.Count) * (b.End - b.Start)) * 1000);
  // The same counts in the same bins (the header's trackable range may differ: the library
  // resizes differently for a weighted record).
  const got = decode(r.latency.histogram);
  assert.equal(got.totalCount, h.totalCount);
  assert.equal(got.mean, h.mean);
  for (let p = 0; p <= 100; p += 0.1) assert.equal(got.getValueAtPercentile(p), h.getValueAtPercentile(p), `p${p}`);
  assert.equal(r.requests.total, 7000);
  assert.equal(r.errors.byClass.http503, 6);
  assert.equal(r.errors.byClass.transport, 4);
});
