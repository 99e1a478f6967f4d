// What a duet buys on kind: Traefik against itself (A/A), as duet pairs (two releases in
// one cluster in front of the same pods, k6 alternating requests; each repetition is a
// pair) and as interleaved pairs (two clusters up at once, their runs alternating; pair i
// = repetition i of each), in one session. Measured as the sd over pairs of
// log(head/base) for p50, p99 and p99.9, with each run's wall time and load share.
// Needs the offline kind images (tools/scripts/kind-env.sh, as make test-kind); skipped
// with the reason otherwise.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../src/exec/tools.js';
import { variance } from '../src/compare/stats.js';
import { applyDefaults } from '../src/config/defaults.js';
import { gateCells } from '../src/compare/gate.js';
import { resultRep } from '../src/result/load.js';
import { loadBench } from '../src/config/load.js';
import { planMatrix } from '../src/plan/plan.js';
import { estimateCost } from '../src/plan/cost.js';

const PR_PAIRS = 3;

const CONFIG = join(ROOT, 'tools', 'perf', 'kind-duet.bench.yaml');
const CLI = join(ROOT, 'tools', 'bin', 'tailgate.js');
const QUANTILES = ['p50', 'p99', 'p99.9'];

export async function kindDuetBench() {
  if (process.env.TAILGATE_OFFLINE !== '1' && !process.env.TAILGATE_KIND_PERF)
    return { skipped: 'no offline kind images in this environment (tools/scripts/perf.sh sets them up where built)' };
  const sides = (run, scenario) =>
    pairsOf(join(run.dir, 'base'), join(run.dir, 'head'), 'traefik', 'traefik', scenario);
  const duet = runMatrix('duet-aa');
  // Right after the A/A duet, so that the base beside a hogging head is compared with the
  // base beside an equal head of the same minutes.
  const hog = runMatrix('duet-hog');
  const interleaved = runMatrix('interleaved-aa');
  const noop = runMatrix('duet-aa-prs');
  const canary = runMatrix('duet-canary-delay');
  const long = runMatrix('duet-canary-long');
  const errors = runMatrix('duet-canary-errors');
  const runs = { duet, interleaved, noop, canary, long, errors, hog };
  return {
    duet: { ...duet.timing, ...noise(sides(duet)) },
    interleaved: {
      ...interleaved.timing,
      ...noise(pairsOf(interleaved.dir, interleaved.dir, 'traefik', 'traefik-again')),
    },
    noop: gateDuetPrs(sides(noop)),
    canary: gateDuetPrs(sides(canary, 'steady-canary'), { cell: 'traefik/default/steady-canary' }),
    // 45 s runs state their own noise level, as a matrix of such runs should.
    canaryLong: gateDuetPrs(sides(long, 'steady-long-canary'), {
      cell: 'traefik/default/steady-long-canary',
      gate: { assumedDuetCv: 0.06 },
    }),
    errorCanary: {
      ...gateDuetPrs(sides(errors, 'steady-errors'), { cell: 'traefik/default/steady-errors' }),
      ...errorTotals(sides(errors, 'steady-errors')),
    },
    crossTalk: crossTalk(sides(duet), sides(hog)),
    // plan's estimate for this machine against the wall time of each run.
    estimates: Object.fromEntries(Object.entries(runs).map(([k, r]) => [k, r.estimate])),
  };
}

/** Errors over a duet's pairs, per side, and their ratio. */
export function errorTotals(pairs) {
  const sum = (i) => pairs.reduce((a, p) => a + p[i].errors.total, 0);
  return { baseErrors: sum(0), headErrors: sum(1), errorRatio: Number((sum(1) / Math.max(1, sum(0))).toFixed(2)) };
}

// The base side's p99 beside a head that burns CPU, against beside an equal head.
export function crossTalk(aa, hog) {
  const med = (ps, side, q) => median(ps.map((p) => p[side].latency.percentiles[q]));
  return {
    baseP99AaMs: med(aa, 0, 'p99'),
    baseP99HogMs: med(hog, 0, 'p99'),
    headP99HogMs: med(hog, 1, 'p99'),
    baseP50AaMs: med(aa, 0, 'p50'),
    baseP50HogMs: med(hog, 0, 'p50'),
    headP50HogMs: med(hog, 1, 'p50'),
  };
}

export function runMatrix(matrix, config = CONFIG) {
  const out = mkdtempSync(join(tmpdir(), `tg-perf-${matrix}-`));
  const r = spawnSync(
    process.execPath,
    [CLI, 'run', '--config', config, '--matrix', matrix, '--out', out, '--no-confirm'],
    {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const dir = join(out, readdirSync(out)[0]);
  if (![0, 1, 3].includes(r.status)) throw new Error(`${matrix}: tailgate run exited ${r.status}\n${r.stdout}`);
  const timing = JSON.parse(readFileSync(join(dir, 'timing.json'), 'utf8'));
  const cfg = loadBench(config);
  const estimateS = estimateCost(planMatrix(cfg, matrix), { cfg, oneProcess: true }).longestJobS;
  return {
    dir,
    timing,
    estimate: { estimateS, wallS: timing.wallS, ratio: Number((timing.wallS / estimateS).toFixed(2)) },
  };
}

/** Pairs of results: repetition i of cell a under baseDir with repetition i of cell b under headDir. */
export function pairsOf(baseDir, headDir, a, b, scenario = 'steady') {
  const rep = (dir, c, i) => join(dir, c, 'default', scenario, `rep-${i}`, 'result.json');
  const pairs = [];
  for (let i = 1; existsSync(rep(baseDir, a, i)) && existsSync(rep(headDir, b, i)); i++)
    pairs.push([rep(baseDir, a, i), rep(headDir, b, i)].map((f) => JSON.parse(readFileSync(f, 'utf8'))));
  return pairs;
}

export function noise(pairs) {
  const out = { pairs: pairs.length };
  for (const q of QUANTILES) {
    const logs = pairs.map(([base, head]) => Math.log(head.latency.percentiles[q] / base.latency.percentiles[q]));
    out[q] = {
      sdLogRatio: Number(Math.sqrt(variance(logs)).toFixed(3)),
      medianBaseMs: median(pairs.map(([b]) => b.latency.percentiles[q])),
    };
  }
  return out;
}

function median(xs) {
  const s = [...xs].sort((x, y) => x - y);
  return Number(s[s.length >> 1].toFixed(2));
}

/**
 * PRs of one cell from duet pairs, gated as the PR workflow gates: PR k is pairs
 * 3k..3k+2; a PR whose verdict asks for a confirmation round gets the next 3 pairs
 * (cyclically). -> {prs, passed, failed, inconclusive, rounds}
 */
export function gateDuetPrs(pairs, { cell = 'traefik/default/steady', gate: overrides = {} } = {}) {
  const gate = { ...applyDefaults({ controllers: {}, scenarios: {}, matrices: {} }).gate, ...overrides };
  const reps = pairs.map(([b, h], i) => [b, h].map((doc) => resultRep(doc, `pair ${i + 1}`)));
  const slice = (k) => {
    const ps = Array.from({ length: PR_PAIRS }, (_, j) => reps[(k * PR_PAIRS + j) % reps.length]);
    return { base: ps.map(([b]) => b), head: ps.map(([, h]) => h) };
  };
  const prs = Math.floor(reps.length / PR_PAIRS);
  // Inconclusive is a red check too: counted apart from failed, never as green.
  const out = { prs, passed: 0, failed: 0, inconclusive: 0, rounds: 0 };
  for (let k = 0; k < prs; k++) {
    const first = { cell, ...slice(k) };
    let v = gateCells([first], gate, { mode: 'paired' });
    if (v.confirm.length) {
      out.rounds++;
      v = gateCells([first], gate, { mode: 'paired', confirm: new Map([[cell, slice(k + 1)]]) });
    }
    const verdict = v.cells[0].verdict;
    if (verdict === 'regression') out.failed++;
    else if (verdict === 'pass' || verdict === 'improvement') out.passed++;
    else out.inconclusive++;
  }
  out.p99Ratio = Number(
    Math.exp(reps.reduce((a, [b, h]) => a + Math.log(h.percentiles.p99 / b.percentiles.p99), 0) / reps.length).toFixed(
      2,
    ),
  );
  return out;
}
