// The load-tool readers' contract (ingest/formats.js), run over every registered reader with
// its fixtures (tools/test/fixtures/readers/<format>.*): fed its own tool's output it hands
// over samples with the fields the aggregate reads and makes a result compare accepts; fed
// another tool's it refuses, and the CLI says whose output it is; fed an over-long line, an
// oversized file or a gzip bomb it refuses before reading it all. A reader added to the
// registry without a fixture, or a fixture whose tool is not registered, fails here.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, test } from 'node:test';
import { FORMATS, sniffFormat } from '../../src/ingest/formats.js';
import { ingest } from '../../src/ingest/ingest.js';
import { resultRep } from '../../src/result/load.js';
import { MAX_JSON_BYTES } from '../../src/result/read.js';
import { runCli } from '../helpers/cli.js';
import { scratchDir } from '../helpers/scratch.js';

const FIXTURES = new URL('../fixtures/readers/', import.meta.url).pathname;
const ROOT = new URL('../../../', import.meta.url).pathname;
const fixtures = readdirSync(FIXTURES).map((name) => ({
  name,
  format: name.split('.')[0],
  file: join(FIXTURES, name),
}));
const dir = scratchDir('tg-readers-');
after(() => rmSync(dir, { recursive: true, force: true }));
const LATENCY_MAX_MS = 3_600_000;

// What a reader hands the aggregate, recorded and checked sample by sample.
async function readAll(format, file) {
  const samples = { requests: 0, errors: 0, bad: [] };
  const check = (s, k) => {
    const why = [];
    if (!Number.isFinite(s.ts) || s.ts < Date.UTC(2000, 0) || s.ts > Date.UTC(2100, 0)) why.push('ts: epoch ms');
    if (!Number.isFinite(s.ms) || s.ms < 0 || s.ms > LATENCY_MAX_MS) why.push('ms: 0 … an hour');
    if (typeof s.status !== 'string' || !/^\d{1,3}$/.test(s.status)) why.push('status: HTTP code as digits');
    if (s.error !== undefined && typeof s.error !== 'string') why.push('error: a string');
    // sent (optional): the actual send, where latency counts from the schedule (Vegeta).
    if (s.sent !== undefined && !(Number.isFinite(s.sent) && s.sent <= s.ts && s.ts - s.sent <= s.ms + 1e-6))
      why.push('sent: epoch ms of the actual send, at most ts, waited no longer than ms');
    if (!Number.isInteger(k) || k < 1) why.push('k: a count of at least 1');
    if (why.length && samples.bad.length < 5) samples.bad.push(why.join(', '));
    samples.requests += k;
    if (s.status !== '200' || s.error) samples.errors += k;
  };
  const read = await FORMATS[format].read(file, {
    onRequest: (s) => check(s, 1),
    onRequests: check,
    onDropped: () => {},
  });
  return { read, samples };
}

test('every registered reader has a fixture, and every fixture a registered reader', () => {
  const have = new Set(fixtures.map((f) => f.format));
  assert.deepEqual(
    Object.keys(FORMATS).filter((f) => !have.has(f)),
    [],
    'a reader without a fixture in tools/test/fixtures/readers',
  );
  assert.deepEqual(
    [...have].filter((f) => !Object.hasOwn(FORMATS, f)),
    [],
    'a fixture of no reader in ingest/formats.js',
  );
});

test("the registry's formats are `tailgate ingest --format`'s choices, in its usage and in docs/cli.md", async () => {
  const { usage, options } = await import('../../src/cli/ingest.js');
  const names = Object.keys(FORMATS);
  assert.equal(options.format.default, 'k6');
  assert.ok(usage.includes(`[--format ${names.join('|')}]`), `usage's --format: ${names.join('|')}`);
  // Each choice explained under --format, one line starting with its name.
  for (const name of names) assert.match(usage, new RegExp(`\\n {15}${name} +\\S`), `--format ${name} in the usage`);
  const doc = readFileSync(join(ROOT, 'docs', 'cli.md'), 'utf8');
  assert.ok(doc.includes(`--format ${names.join('\\|')}`), 'docs/cli.md: tailgate ingest --format');
  for (const name of names) assert.equal(typeof FORMATS[name].what, 'string');
});

test('fed its fixture, each reader fills what the result needs, and ingest makes a result compare accepts', async () => {
  for (const { name, format, file } of fixtures) {
    const { read, samples } = await readAll(format, file);
    assert.deepEqual(samples.bad, [], `${name}: samples the aggregate cannot read`);
    assert.ok(samples.requests > 0, `${name}: no requests`);
    if (read.source) assert.equal(read.source.tool, format, `${name}: source.tool`);
    if (read.meta?.workload) assert.equal(read.meta.workload.tool, format, `${name}: meta.workload.tool`);

    const r = await ingest({ output: file, format });
    resultRep(r, name);
    assert.equal(r.requests.total, samples.requests, `${name}: every request counted`);
    assert.equal(r.latency.count, samples.requests, `${name}: every request in the histogram`);
    assert.equal(r.errors.total, samples.errors, `${name}: a request that failed is an error, by class`);
    for (const q of ['p50', 'p99', 'max']) assert.ok(r.latency.percentiles[q] > 0, `${name}: ${q}`);
    if (format !== 'k6') {
      assert.equal(r.latency.source.tool, format, `${name}: latency.source names the tool`);
      assert.equal(r.meta.workload.tool, format, `${name}: the workload names the tool (never like k6's)`);
    }
  }
});

test("each tool's output looks like its own only (sniff), so a refusal can say whose it is", () => {
  for (const { name, format, file } of fixtures) {
    const text = readFileSync(file, 'utf8').replace(/^\s+/, '');
    const claims = Object.keys(FORMATS).filter((f) => FORMATS[f].sniff(text));
    assert.deepEqual(claims, [format], `${name}: looks like ${claims.join(', ') || 'nothing'}`);
    assert.equal(sniffFormat(readFileSync(file, 'utf8')), format);
  }
});

test("fed another tool's output, each reader refuses and the CLI says whose output it is", async () => {
  for (const format of Object.keys(FORMATS))
    for (const other of fixtures.filter((f) => f.format !== format)) {
      await assert.rejects(
        FORMATS[format].read(other.file, { onRequest() {}, onRequests() {}, onDropped() {} }),
        (err) => err.name === 'InputError' && err.message.includes(other.file),
        `--format ${format} read ${other.name}`,
      );
      const out = join(dir, `${format}-${other.name}.result.json`);
      const r = await runCli(['ingest', other.file, '--format', format, '--out', out]);
      assert.equal(r.code, 2, `--format ${format} on ${other.name}: ${r.out}`);
      assert.ok(
        r.out.includes(
          `this is ${FORMATS[other.format].what} output, not ${FORMATS[format].what}: ingest it with --format ${other.format}`,
        ),
        `--format ${format} on ${other.name}: ${r.out}`,
      );
    }
});

// Refused with an InputError naming the file, having handed over fewer requests than the
// file holds: the reader stopped at its bound.
async function refusedEarly(format, file, holds) {
  let requests = 0;
  const count = (s, k = 1) => (requests += k);
  const err = await FORMATS[format].read(file, { onRequest: count, onRequests: count, onDropped() {} }).then(
    () => null,
    (e) => e,
  );
  assert.ok(err, `--format ${format}: read ${file} to its end`);
  assert.equal(err.name, 'InputError', `--format ${format}: ${err.stack}`);
  assert.ok(err.message.includes(file), `--format ${format}: names the file: ${err.message}`);
  assert.ok(requests < holds, `--format ${format}: handed over ${requests} of ${holds} requests`);
  return err;
}

test('fed an over-long line or an oversized file, each reader refuses at its bound', async () => {
  for (const { name, format, file } of fixtures) {
    // The fixture's start, then zeros without a newline past what any reader takes whole
    // (a sparse file: nothing is written).
    const big = join(dir, `big-${name}`);
    writeFileSync(big, readFileSync(file, 'utf8').split('\n')[0] + '\n');
    truncateSync(big, MAX_JSON_BYTES + 1);
    const err = await refusedEarly(format, big, Infinity);
    assert.match(err.message, /line longer than \d+ bytes|larger than \d+ bytes/, `${name}: ${err.message}`);
  }
});

// A bomb that passes every reader's own checks is tool-specific: ingest-claims.test.js
// holds k6's and Vegeta's to open.js's inflation bound. Here the generic one: the
// fixture's first line, then 64 MiB of zeros (~64 KB gzipped).
test('fed a gzip bomb, each reader refuses before it has inflated it', async () => {
  for (const { name, format, file } of fixtures) {
    const bomb = join(dir, `bomb-${name}.gz`);
    const first = readFileSync(file, 'utf8').split('\n')[0] + '\n';
    writeFileSync(bomb, gzipSync(Buffer.concat([Buffer.from(first), Buffer.alloc(64 << 20)]), { level: 9 }));
    await refusedEarly(format, bomb, Infinity);
  }
});
