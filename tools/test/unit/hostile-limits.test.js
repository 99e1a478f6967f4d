// Small hostile files that would cost gigabytes or minutes: every input is bounded by
// what a legitimate one can be, checked before the work it would cause, and refused
// with exit 2 naming the file, the field and the limit — nothing written. Each case runs
// the CLI in its own process and bounds its peak memory and time generously (this
// machine is noisy; before these limits the cases took 3-14 GB or minutes).
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { deflateSync, gzipSync } from 'node:zlib';
import { measuredCli } from '../helpers/measured-cli.js';
import { durationLine } from '../helpers/k6-lines.js';
import { syntheticResult } from '../helpers/synthetic.js';
import { unsafeSysctls } from '../../src/targets/kube/sysctls.js';
import { scratchDir } from '../helpers/scratch.js';

const MAX_MB = 600;
const MAX_MS = 20_000;

function refused(r, pattern, what) {
  assert.equal(r.code, 2, `${what}: exit 2\n${r.out.slice(0, 2000)}`);
  assert.match(r.out, pattern, what);
  assert.ok(r.maxRssMB < MAX_MB, `${what}: ${r.maxRssMB} MB`);
  assert.ok(r.ms < MAX_MS, `${what}: ${r.ms} ms`);
}

const dir = () => scratchDir('tg-limits-');
const T0 = Date.parse('2026-11-22T10:00:00Z');
const k6File = (lines) => gzipSync(`${lines.join('\n')}\n`);

test('hostile-limits: a deflate bomb as histogram is refused before inflating (2 MB of it made compare take 3 GB)', async () => {
  const root = dir();
  const { file } = await syntheticResult({ medianMs: 2, seed: 1 });
  const doc = JSON.parse(readFileSync(file, 'utf8'));
  const header = Buffer.alloc(40);
  header.writeInt32BE(0x1c849313, 0);
  header.writeInt32BE(50_000_000, 4);
  header.writeInt32BE(3, 12);
  header.writeBigInt64BE(1n, 16);
  header.writeBigInt64BE(3_600_000_000n, 24);
  // 50 MB of zero counts in 65 KB of base64: past the 1 MB bound an inflate stops.
  const z = deflateSync(Buffer.concat([header, Buffer.alloc(50_000_000)]), { level: 9 });
  const cookie = Buffer.alloc(8);
  cookie.writeInt32BE(0x1c849314, 0);
  cookie.writeInt32BE(z.length, 4);
  doc.latency.histogram = Buffer.concat([cookie, z]).toString('base64');
  const bomb = join(root, 'bomb.json');
  writeFileSync(bomb, JSON.stringify(doc));
  const out = join(root, 'verdict.json');
  refused(
    measuredCli(['compare', '--baseline', file, bomb, '--out', out]),
    /bomb\.json: latency\.histogram is not a valid compressed HDR histogram \(inflates beyond 1048576 bytes\)/,
    'deflate bomb',
  );
  assert.ok(!existsSync(out));
  doc.latency.histogram = 'A'.repeat(2_000_000);
  writeFileSync(bomb, JSON.stringify(doc));
  refused(measuredCli(['compare', '--baseline', file, bomb]), /longer than 1048576 characters/, 'long');
  // A header asking for an absurd range is refused before the counts array is made.
  header.writeInt32BE(0, 4);
  header.writeBigInt64BE(2n ** 62n, 24);
  const wide = deflateSync(header);
  cookie.writeInt32BE(wide.length, 4);
  doc.latency.histogram = Buffer.concat([cookie, wide]).toString('base64');
  writeFileSync(bomb, JSON.stringify(doc));
  refused(measuredCli(['compare', '--baseline', file, bomb]), /highest trackable value beyond/, 'wide range');
});

test('hostile-limits: bench.yaml that multiplies (cells, measurements, sweep steps, faults, definitions) is refused at validate and plan', () => {
  const root = dir();
  const names = (p, n) => Array.from({ length: n }, (_, i) => `${p}${i}`);
  const bench = (extra) =>
    `apiVersion: tailgate/v1\nkind: Bench\ncontrollers: { a: { type: local, variant: nginx-reload } }\n${extra}profiles: { local: { runner: local } }\n`;
  // One controller over `t` tunings × `s` scenarios (× `reps` repetitions when given).
  const grid = (t, s, reps) =>
    bench(
      `tunings:\n${names('t', t)
        .map((x) => `  ${x}: {}\n`)
        .join('')}scenarios:\n${names('s', s)
        .map((x) => `  ${x}: { script: steady, rate: 100, duration: 20s }\n`)
        .join(
          '',
        )}matrices:\n  m: { target: local, profile: local, controllers: [a], tunings: [${names('t', t)}], scenarios: [${names('s', s)}]${reps ? `, repetitions: ${reps}` : ''} }\n`,
    );
  // 28 KB: 400 tunings × 400 scenarios × 50 repetitions = 8M cells (4.4 GB, killed at 100 s before).
  const wide = join(root, 'wide.yaml');
  writeFileSync(wide, grid(400, 400, 50));
  for (const argv of [['validate'], ['plan', '--matrix', 'm'], ['run', '--matrix', 'm', '--dry-run']])
    refused(
      measuredCli([...argv, '--config', wide]),
      /matrices\.m\.scenarios: 1 controllers × 400 tunings × 400 scenarios = 160000 cells, over the limit of 1000/,
      argv[0],
    );
  // Within the cell limit, but repetitions on the command line multiply past the measurements limit.
  const ok = join(root, 'ok.yaml');
  writeFileSync(ok, grid(20, 40));
  refused(
    measuredCli(['plan', '--config', ok, '--matrix', 'm', '--repetitions', '50']),
    /800 cells × .*|= 40000 measurements, over the limit of 10000: at most 12 repetitions for 800 cells/,
    'repetitions',
  );
  const sweep = join(root, 'sweep.yaml');
  writeFileSync(
    sweep,
    bench(
      `scenarios:\n  s: { script: sweep, rates: [${names('', 30).map((x) => Number(x) + 1)}], connections: [${names('', 30).map((x) => Number(x) + 1)}], faults: [${Array(17).fill('{ type: pod-kill, every: 1s }')}] }\nmatrices: { m: { target: local, profile: local, controllers: [a], scenarios: [s] } }\n`,
    ),
  );
  const r = measuredCli(['validate', '--config', sweep]);
  refused(r, /scenarios\.s\.rates: 30 rates × 30 connection counts = 900 sweep steps, over the limit of 400/, 'sweep');
  assert.match(r.out, /scenarios\.s\.faults: 17 faults, over the limit of 16 per scenario/);
  // 60k definitions: 146 s before (the YAML library's unique-key check is quadratic).
  const many = join(root, 'many.yaml');
  writeFileSync(
    many,
    bench(
      `tunings:\n${names('t', 60_000)
        .map((t) => `  ${t}: {}\n`)
        .join('')}`,
    ),
  );
  refused(
    measuredCli(['validate', '--config', many]),
    /many\.yaml:4:1: tunings: 60000 entries, over the limit of 500/,
    'definitions',
  );
});

test('hostile-limits: k6 output that allocates per distinct value (seconds, phases, steps) is refused, nothing written', () => {
  const root = dir();
  const out = join(root, 'r.json');
  const cases = [
    // Seconds running backwards never close their windows (14 GB and 80 s before).
    [
      'span',
      [
        ...Array.from({ length: 20_000 }, (_, i) => durationLine({ ts: T0 - i * 1000, ms: (i % 3600) * 1000 + 1 })),
        durationLine({ ts: T0 + 50 * 3_600_000, ms: 1 }),
      ],
      /span\.json\.gz:\d+: timestamps span more than 49 h: not the output of one run/,
    ],
    [
      'steps',
      Array.from({ length: 5000 }, (_, i) =>
        durationLine({ ts: T0, ms: 1 }).replace('"phase"', `"step":"s${i}","phase"`),
      ),
      /steps\.json\.gz:1001: more than 1000 distinct step tags/,
    ],
    [
      'phases',
      Array.from({ length: 100 }, (_, i) => durationLine({ ts: T0, ms: 1, phase: `p${i}` })),
      /phases\.json\.gz:17: more than 16 distinct phase tags/,
    ],
    ['tag', [durationLine({ ts: T0, ms: 1, phase: 'x'.repeat(65) })], /longer than 64 characters/],
  ];
  for (const [name, lines, pattern] of cases) {
    const file = join(root, `${name}.json.gz`);
    writeFileSync(file, k6File(lines));
    refused(measuredCli(['ingest', file, '--out', out]), pattern, name);
    assert.ok(!existsSync(out), `${name}: nothing written`);
  }
});

test('hostile-limits: an events file is bounded (size, fields, strings) and must lie on the run clock', () => {
  const root = dir();
  const k6 = join(root, 'k6.json.gz');
  writeFileSync(k6, k6File(Array.from({ length: 2000 }, (_, i) => durationLine({ ts: T0 + i * 10, ms: 1.5 }))));
  const out = join(root, 'r.json');
  const ev = (name, lines) => (writeFileSync(join(root, name), `${lines.join('\n')}\n`), join(root, name));
  const big = 'x'.repeat(200_000);
  const cases = [
    [
      ev('big.jsonl', Array(20).fill(JSON.stringify({ ts: T0, type: 'pod-killed', pod: big }))),
      /big\.jsonl:1: an event line is at most 4096 bytes/,
    ],
    [
      ev('huge.jsonl', Array(60).fill(JSON.stringify({ ts: T0, type: 'x', pod: 'y'.repeat(150_000) }))),
      /huge\.jsonl: cannot read events file \(larger than 8388608 bytes\)/,
    ],
    [
      ev('nested.jsonl', [JSON.stringify({ ts: T0, type: 'pod-killed', pod: { a: [1, 2] } })]),
      /nested\.jsonl:1: event fields are names/,
    ],
    [
      ev('far.jsonl', [JSON.stringify({ ts: T0 + 86_400_000, type: 'pod-killed' })]),
      /far\.jsonl: event 1 \(pod-killed\) is more than 60 min outside the run/,
    ],
  ];
  for (const [file, pattern] of cases) {
    refused(measuredCli(['ingest', k6, '--events', file, '--out', out]), pattern, file);
    assert.ok(!existsSync(out));
  }
  const fine = ev('fine.jsonl', [JSON.stringify({ ts: T0 + 5000, type: 'pod-killed', pod: 'backend-1' })]);
  assert.equal(measuredCli(['ingest', k6, '--events', fine, '--out', out]).code, 0);
  assert.equal(JSON.parse(readFileSync(out, 'utf8')).events[0].t, 5);
});

test('hostile-limits: a values file over 1 MB or with an alias bomb is refused by the sysctl reader', () => {
  const root = dir();
  const large = join(root, 'large.yaml');
  writeFileSync(large, `a: "${'x'.repeat(1_100_000)}"\n`);
  assert.throws(() => unsafeSysctls([large]), /large\.yaml: cannot read \(larger than 1048576 bytes\)/);
  const bomb = join(root, 'bomb.yaml');
  const levels = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
  for (let i = 1; i < 12; i++)
    levels.push(
      `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9).fill(`*${String.fromCharCode(96 + i)}`)}]`,
    );
  writeFileSync(bomb, `${levels.join('\n')}\n`);
  assert.throws(() => unsafeSysctls([bomb]), /bomb\.yaml: not a values file \(.*alias/i);
  assert.deepEqual(readdirSync(root).sort(), ['bomb.yaml', 'large.yaml']);
});
