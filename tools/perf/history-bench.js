// make perf: history at scale — a store of 50 cells × 1,000 nightly records, then one
// append (a run's cells), detect over every series and metric, and the page with its
// gnuplot charts, each as its own `tailgate history` process: wall time and peak memory.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../src/exec/tools.js';

const CLI = join(ROOT, 'tools', 'bin', 'tailgate.js');

// shape: 'noise' (a nightly series, some cells with a +15% step at 70%), or 'ramp': p99
// rising by a constant factor each night — every split of it is significant, which made
// the unbounded change-point search cost O(n²) per level for n/minSize levels.
function store(dir, cells, points, shape = 'noise') {
  let seed = 7;
  const rnd = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
  const normal = () => Math.sqrt(-2 * Math.log(rnd() || 1e-12)) * Math.cos(2 * Math.PI * rnd());
  for (let c = 0; c < cells; c++) {
    const [ctl, sc] = [`ctl-${c % 10}`, `sc-${Math.floor(c / 10)}`];
    mkdirSync(join(dir, 'bench', ctl, 'default'), { recursive: true });
    const lines = [];
    for (let i = 0; i < points; i++) {
      const p99 =
        shape === 'ramp'
          ? 4 * Math.exp(i / points)
          : 4 * Math.exp(0.06 * normal()) * (i >= points * 0.7 && c % 5 === 0 ? 1.15 : 1);
      lines.push(
        JSON.stringify({
          schemaVersion: 1,
          kind: 'tailgate.history',
          cell: `${ctl}/default/${sc}`,
          commit: (0x10000000 + i).toString(16),
          time: new Date(Date.UTC(2024, 0, 1) + i * 86_400_000).toISOString(),
          profile: 'bench',
          workload: 'w1',
          latencyMs: { p50: 0.5, p99, 'p99.9': p99 * 2, 'p99.99': p99 * 3 * Math.exp(0.1 * normal()) },
          errors: { total: 0, byClass: {}, rate: 0.0001 * Math.exp(0.2 * normal()) },
          dropped: 0,
        }),
      );
    }
    writeFileSync(join(dir, 'bench', ctl, 'default', `${sc}.jsonl`), `${lines.join('\n')}\n`);
  }
}

// `/usr/bin/time -f '%e %M'`: wall seconds and peak resident kB of one process.
function timed(args) {
  const r = spawnSync('/usr/bin/time', ['-f', '%e %M', process.execPath, CLI, ...args], { encoding: 'utf8' });
  const last = r.stderr.trim().split('\n').at(-1).split(' ');
  return { code: r.status, seconds: Number(last[0]), peakMb: Math.round(Number(last[1]) / 1024) };
}

export function historyBench({ cells = 50, points = 1000 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'tg-perf-history-'));
  try {
    return measure(dir, cells, points);
  } finally {
    rmSync(dir, { recursive: true, force: true }); // 50,000 records: not left in the temp dir
  }
}

function measure(dir, cells, points) {
  const hist = join(dir, 'history');
  store(hist, cells, points);
  const append = timed([
    'history',
    'append',
    '--results',
    join(ROOT, 'tools/test/fixtures/runs/base'),
    '--commit',
    'f00dfeed',
    '--store',
    hist,
  ]);
  const detect = timed(['history', 'detect', '--store', hist, '--out', join(dir, 'changes.json')]);
  const page = timed(['history', 'report', '--store', hist, '--site', join(dir, 'site')]);
  const png = timed(['history', 'report', '--store', hist, '--site', join(dir, 'site'), '--png']);
  // detect exits 1 when it finds a shift for the worse (the store plants some).
  for (const [name, x, ok] of [
    ['append', append, [0]],
    ['detect', detect, [0, 1]],
    ['report', page, [0]],
    ['report --png', png, [0]],
  ])
    if (!ok.includes(x.code)) throw new Error(`history ${name} exited ${x.code}`);
  return { cells, points, append, detect, page, png, ...atLimit(dir) };
}

// The store's bounds (HISTORY_LIMITS: 20,000 records a series): detect over 50 ordinary
// cells of that length, and over one ramp of it — the cost must not depend on the values.
function atLimit(dir) {
  const big = join(dir, 'at-limit');
  store(big, 50, 20_000);
  const detectAtLimit = timed(['history', 'detect', '--store', big, '--out', join(dir, 'big.json')]);
  rmSync(big, { recursive: true, force: true });
  const ramp = join(dir, 'ramp');
  store(ramp, 1, 20_000, 'ramp');
  const detectRamp = timed(['history', 'detect', '--store', ramp, '--out', join(dir, 'ramp.json')]);
  for (const [name, x] of [
    ['detect at the limit', detectAtLimit],
    ['detect of a ramp', detectRamp],
  ])
    if (![0, 1].includes(x.code)) throw new Error(`history ${name} exited ${x.code}`);
  return { detectAtLimit, detectRamp };
}

if (process.argv[1] === new URL(import.meta.url).pathname) console.log(JSON.stringify(historyBench(), null, 1));
