// fortio and Vegeta read (tailgate ingest --format): each tool, pinned and built like k6,
// drives the real local nginx in front of real pods; tailgate's percentiles are checked
// against the samples themselves (Vegeta keeps every one) and against each tool's own
// report — Vegeta's t-digest estimate, fortio's bucket interpolation inside the bounds the
// result states.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ingest } from '../../src/ingest/ingest.js';
import { resultRep } from '../../src/result/load.js';
import { runCell } from '../../src/targets/local/driver.js';
import { ROOT } from '../../src/exec/tools.js';
import { makeCell } from '../helpers/cells.js';
import { scratchDir } from '../helpers/scratch.js';

const BIN = join(ROOT, '.tools', 'bin');
const [VEGETA, FORTIO] = [join(BIN, 'vegeta'), join(BIN, 'fortio')];
const missing = [VEGETA, FORTIO].filter((f) => !existsSync(f));
const skip = missing.length ? `not built (make test builds them with Go): ${missing.join(', ')}` : false;
const RATE = 500;
const SECONDS = 5;
const QUANTILES = { p50: 50, p90: 90, p99: 99, 'p99.9': 99.9 };

const tool = (cmd, args, opts = {}) => {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 28, timeout: 60_000, ...opts });
  assert.equal(r.status, 0, `${cmd} ${args[0]}: exit ${r.status}\n${String(r.stderr).slice(-1500)}`);
  return r.stdout;
};

let dir;
after(() => dir && rmSync(dir, { recursive: true, force: true }));
// One data plane, both tools in turn at the same rate: fortio, then a Vegeta attack, on
// the path and Host k6's scripts use (k6/lib/target.js).
before(async () => {
  if (skip) return;
  dir = scratchDir('tg-tools-');
  const cell = makeCell({
    controller: { variant: 'nginx-dynamic' },
    scenario: { script: 'steady', rate: RATE, duration: `${SECONDS * 2}s`, warmup: '0s', replicas: 2 },
  });
  await runCell({
    cell,
    cellDir: dir,
    drive: async ({ url }) => {
      // -r 0.0001: 100 µs buckets (fortio's default is 1 ms); -c 16 keeps it open-loop enough.
      tool(FORTIO, [
        'load',
        '-qps',
        String(RATE),
        '-t',
        `${SECONDS}s`,
        '-c',
        '16',
        '-r',
        '0.0001',
        '-p',
        '50,90,99,99.9',
        '-json',
        join(dir, 'fortio.json'),
        '-H',
        'Host: bench.local',
        `${url}/0KiB`,
      ]);
      tool(
        VEGETA,
        [
          'attack',
          '-rate',
          String(RATE),
          '-duration',
          `${SECONDS}s`,
          '-max-body',
          '0',
          '-output',
          join(dir, 'vegeta.bin'),
        ],
        { input: `GET ${url}/0KiB\nHost: bench.local\n` },
      );
      return { exitCode: 0 };
    },
  });
  const bin = join(dir, 'vegeta.bin');
  writeFileSync(join(dir, 'vegeta.json'), tool(VEGETA, ['encode', '--to', 'json', bin]));
  writeFileSync(join(dir, 'vegeta.csv'), tool(VEGETA, ['encode', '--to', 'csv', bin]));
  writeFileSync(join(dir, 'vegeta-report.json'), tool(VEGETA, ['report', '-type', 'json', bin]));
});

const rank = (sorted, pct) => sorted[Math.max(1, Math.ceil((pct / 100) * sorted.length)) - 1];

test(
  "ingest --format vegeta: every sample, so the exact quantiles; Vegeta's own t-digest report agrees",
  { skip, timeout: 120_000 },
  async () => {
    const result = await ingest({ output: join(dir, 'vegeta.json'), format: 'vegeta', meta: { rate: RATE } });
    resultRep(result, 'vegeta result'); // compare, report and history read it as they read k6's
    const lines = readFileSync(join(dir, 'vegeta.json'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    const sorted = lines.map((l) => l.latency / 1e6).sort((a, b) => a - b);
    const report = JSON.parse(readFileSync(join(dir, 'vegeta-report.json'), 'utf8'));
    assert.equal(result.requests.total, lines.length);
    assert.equal(result.requests.total, report.requests);
    assert.ok(lines.length >= RATE * SECONDS * 0.95, `Vegeta sent ${lines.length} requests`);
    assert.equal(result.errors.total, Math.round(report.requests * (1 - report.success)));
    assert.ok(
      Math.abs(result.load.achievedRate - report.rate) < 1,
      `rate ${result.load.achievedRate} vs ${report.rate}`,
    );
    assert.equal(result.latency.source.tool, 'vegeta');
    assert.equal(result.latency.source.exact, true);
    const theirs = { p50: report.latencies['50th'], p90: report.latencies['90th'], p99: report.latencies['99th'] };
    const rows = [];
    for (const [name, pct] of Object.entries(QUANTILES)) {
      const exact = rank(sorted, pct);
      const ours = result.latency.percentiles[name];
      // HDR keeps 3 significant digits and reports a bucket's upper edge.
      assert.ok(Math.abs(ours - exact) <= exact * 0.001 + 0.001, `${name}: tailgate ${ours} vs the samples' ${exact}`);
      if (theirs[name] === undefined) continue;
      // Vegeta estimates with a t-digest: its value lies among the samples within half a
      // percentage point of the quantile's rank.
      const vegeta = theirs[name] / 1e6;
      const [lo, hi] = [rank(sorted, pct - 0.5), rank(sorted, Math.min(99.99, pct + 0.5))];
      rows.push(`${name} tailgate ${ours} exact ${exact} vegeta ${vegeta.toFixed(3)}`);
      assert.ok(
        vegeta >= lo * 0.999 && vegeta <= hi * 1.001,
        `${name}: Vegeta's ${vegeta} outside the samples' [${lo}, ${hi}]`,
      );
    }
    console.log(rows.join('\n'));
    // The CSV encoding of the same attack gives the same result.
    const csv = await ingest({ output: join(dir, 'vegeta.csv'), format: 'vegeta', meta: { rate: RATE } });
    assert.deepEqual(csv.latency.percentiles, result.latency.percentiles);
    assert.deepEqual(csv.errors, result.errors);
  },
);

test(
  "ingest --format fortio: buckets, so each quantile within its stated bucket, as fortio's own",
  { skip, timeout: 60_000 },
  async () => {
    const doc = JSON.parse(readFileSync(join(dir, 'fortio.json'), 'utf8'));
    const result = await ingest({ output: join(dir, 'fortio.json'), format: 'fortio' });
    resultRep(result, 'fortio result');
    const h = doc.DurationHistogram;
    assert.equal(result.requests.total, h.Count);
    assert.ok(h.Count >= RATE * SECONDS * 0.95, `fortio sent ${h.Count} requests`);
    assert.equal(result.load.targetRate, RATE);
    assert.deepEqual(result.timeline, [], 'fortio keeps no per-request times: no timeline');
    const { source } = result.latency;
    assert.equal(source.tool, 'fortio');
    assert.equal(source.exact, false);
    const rows = [];
    for (const p of h.Percentiles) {
      const name = `p${p.Percentile}`;
      const [lo, hi] = source.bounds[name];
      const ours = result.latency.percentiles[name];
      const fortio = p.Value * 1000;
      rows.push(`${name} tailgate ${ours} fortio ${fortio.toFixed(3)} bucket [${lo}, ${hi}]`);
      // fortio's buckets are 1, 2 … 11, 12, 14 … 20, 25 … 50, 60 … 100, 120 … 1000, 2000 … × -r
      // (stats.go): up to a quarter of their lower edge wide below 1000 × r (100 ms here).
      assert.ok(hi - lo <= Math.max(0.1, lo * (lo < 100 ? 0.25 : 1)) + 1e-9, `${name}: bucket [${lo}, ${hi}]`);
      // Both spread a bucket's requests over it; HDR's 3 digits add 0.1%.
      for (const [who, v] of [
        ['tailgate', ours],
        ['fortio', fortio],
      ])
        assert.ok(
          v >= lo - 0.001 && v <= hi * 1.001 + 0.001,
          `${name}: ${who}'s ${v} outside its bucket [${lo}, ${hi}]`,
        );
    }
    console.log(rows.join('\n'));
  },
);
