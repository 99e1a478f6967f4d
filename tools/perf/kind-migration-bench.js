// make perf, kind-migration part: migrations between controllers that run here, each as
// `tailgate migrate --duet` and as `tailgate migrate` (alternate pairs in one cluster), the
// same matrix, one session (tools/perf/kind-migration.bench.yaml). What it measures, per
// migration and mode:
// - the non-inferiority verdict in both directions from the same pairs (from ↔ candidate
//   swapped), p99's ratio, interval and the pairs that would decide;
// - the sd over pairs of log(candidate/from) p99, and from it the pairs each mode needs to
//   call an equal candidate no worse at a 10% margin 80% of the time;
// - cross-talk: each controller's CPU per 1,000 requests beside the other (duet) and alone
//   (alternate), and its p99 in each.
// A migration that fails to run is recorded with its error; the others still run.
// Needs the offline kind images, as the kind part; skipped with the reason otherwise.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../src/exec/tools.js';
import { variance } from '../src/compare/stats.js';
import { loadBench } from '../src/config/load.js';
import { migrationDoc, migrationFromDirs, parseMargins } from '../src/compare/migration.js';
import { normalQuantile } from '../src/normal.js';
import { pairsOf } from './kind-duet-bench.js';

const CONFIG = join(ROOT, 'tools', 'perf', 'kind-migration.bench.yaml');
const CLI = join(ROOT, 'tools', 'bin', 'tailgate.js');
const MARGIN = Math.log(1.1);
// [from, candidate, pairs]
export const MIGRATIONS = [
  ['traefik', 'haproxy-ingress', 8],
  ['traefik', 'traefik-gateway', 6],
];

export async function kindMigrationBench() {
  if (process.env.TAILGATE_OFFLINE !== '1' && !process.env.TAILGATE_KIND_PERF)
    return { skipped: 'no offline kind images in this environment (tools/scripts/perf.sh sets them up where built)' };
  const gate = loadBench(CONFIG).gate;
  const out = { migrations: [] };
  for (const [from, to, reps] of MIGRATIONS) {
    const m = { from, to };
    for (const mode of ['duet', 'alternate']) {
      try {
        m[mode] = measure(from, to, reps, mode, gate);
      } catch (e) {
        m[mode] = { error: String(e.message).slice(0, 2000) };
      }
    }
    // Cross-talk: what each controller burns and how it answers beside the other, against alone.
    if (m.duet.sides && m.alternate.sides)
      m.crossTalk = Object.fromEntries(
        [from, to].map((c, i) => {
          const [d, a] = [m.duet.sides[i], m.alternate.sides[i]];
          return [c, { cpuRatio: round(d.cpuPer1k / a.cpuPer1k), p99Ratio: round(d.p99Ms / a.p99Ms) }];
        }),
      );
    out.migrations.push(m);
  }
  return out;
}

function measure(from, to, reps, mode, gate) {
  const run = migrate(from, to, ['--repetitions', String(reps), ...(mode === 'duet' ? ['--duet'] : [])]);
  const [baseDir, headDir] = ['base', 'head'].map((s) => join(run.dir, s));
  const pairs = pairsOf(baseDir, headDir, from, from, 'steady');
  const logs = pairs.map(([b, h]) => Math.log(h.latency.percentiles.p99 / b.latency.percentiles.p99));
  const sd = logs.length > 1 ? Math.sqrt(variance(logs)) : null;
  const verdict = (b, h, f, c) => {
    const doc = migrationDoc({
      inputs: migrationFromDirs(b, h),
      gate,
      margins: parseMargins(['p99=10%']),
      from: f,
      candidate: c,
    });
    const p99 = doc.cells[0].metrics.find((x) => x.metric === 'p99');
    return {
      overall: doc.overall,
      p99: {
        ratio: p99.ratio,
        lower: p99.lower,
        upper: p99.upper,
        verdict: p99.verdict,
        pairsNeeded: p99.pairsNeeded ?? null,
      },
    };
  };
  return {
    dir: run.dir,
    wallS: run.wallS,
    exitCode: run.status,
    pairs: pairs.length,
    sdLogP99: round(sd),
    // An equal candidate, this mode's noise, one-sided 5%, 80% power, 10% margin.
    pairsForEqual: sd ? Math.ceil((((normalQuantile(0.95) + normalQuantile(0.8)) * sd) / MARGIN) ** 2) : null,
    forward: verdict(baseDir, headDir, from, to),
    backward: verdict(headDir, baseDir, to, from),
    sides: [0, 1].map((i) => ({
      cpuPer1k: median(pairs.map((p) => p[i].resources?.cpuPer1kRequests)),
      p50Ms: median(pairs.map((p) => p[i].latency.percentiles.p50)),
      p99Ms: median(pairs.map((p) => p[i].latency.percentiles.p99)),
      errors: pairs.reduce((a, p) => a + p[i].errors.total, 0),
    })),
  };
}

function migrate(from, to, extra) {
  const dir = mkdtempSync(join(tmpdir(), 'tg-perf-migrate-'));
  const started = Date.now();
  const r = spawnSync(
    process.execPath,
    [CLI, 'migrate', '--config', CONFIG, '--matrix', 'migration', '--from', from, '--to', to, '--out', dir, ...extra],
    { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  if (![0, 1, 3].includes(r.status))
    throw new Error(
      `tailgate migrate --from ${from} --to ${to} ${extra.join(' ')}: exit ${r.status}\n${r.stdout.slice(-1500)}`,
    );
  return { dir: join(dir, readdirSync(dir)[0]), status: r.status, wallS: Math.round((Date.now() - started) / 1000) };
}

function median(xs) {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  if (!s.length) return null;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

function round(x) {
  return Number.isFinite(x) ? Number(x.toFixed(3)) : null;
}
