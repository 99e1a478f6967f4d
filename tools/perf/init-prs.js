#!/usr/bin/env node
// No-op PRs as a new user meets them: the `pr` matrix `tailgate init --controller <c>`
// writes (a duet, steady + pod-kill, 3 pairs), run A/A on offline kind for N pairs, then
// gated as PRs of 3 pairs with the next 3 as a PR's confirmation round (cyclically) —
// every cell of a PR together, with the matrix's own gate. Counts pass / inconclusive /
// fail (both of the last are red checks), and shows whether A/A pairs lean to a side.
//   node tools/perf/init-prs.js run <controller> [pairs] [--canary <name of CANARIES below>]
//                                   [--rates 200,100] [--steady-rate 200] [--scenarios steady,pod-kill]
//   node tools/perf/init-prs.js gate <run dir> <controller> [bench.yaml]
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse, stringify } from 'yaml';
import { gateCells } from '../src/compare/gate.js';
import { loadBench } from '../src/config/load.js';
import { resultRep } from '../src/result/load.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const CLI = join(ROOT, 'tools', 'bin', 'tailgate.js');
const PR_PAIRS = 3;

// Canaries on the head's route at the pods (the backend chart's duet canaries): a slower
// quarter of the steady cell's requests, and twice the errors per pod kill (503s on the
// head's route during pod-kill, over the base's own). What a delay does to p99 depends on
// the base's tail: 1 ms on a quarter was ×1.18 when this machine's steady p99 was low, but
// ×1.06 at p99 ≈ 4–12 ms (2026-11-25), where 2 ms made ×1.17 and 3 ms ×1.29 (docs/duet.md);
// 1 ms on half of them sits between.
const CANARIES = {
  'steady-delay': { scenario: 'steady', set: { headDelay: '1ms', headDelayShare: '25%' } },
  'steady-delay-half': { scenario: 'steady', set: { headDelay: '1ms', headDelayShare: '50%' } },
  'steady-delay-2ms': { scenario: 'steady', set: { headDelay: '2ms', headDelayShare: '25%' } },
  'steady-delay-3ms': { scenario: 'steady', set: { headDelay: '3ms', headDelayShare: '25%' } },
  // About +1 ms at p99 (a shift d on a share s moves a tail quantile by about s × d): ×1.10
  // where the steady cell's p99 is near 10 ms (200/s a side on 2 cores, 2026-11-27).
  'steady-delay-2ms-half': { scenario: 'steady', set: { headDelay: '2ms', headDelayShare: '50%' } },
  // The same +1 ms at p99 from a quarter of the requests: the median stays where it was.
  'steady-delay-4ms': { scenario: 'steady', set: { headDelay: '4ms', headDelayShare: '25%' } },
  'pod-kill-errors': { scenario: 'pod-kill', set: { backendErrors: '0.1%', headErrors: '0.2%' } },
  // Each kill 30% worse on the head only: haproxy-ingress waits 6.5 s, not 5 s, on a
  // connect to a killed pod's address before it redispatches (overlays/canary-failover-6500ms).
  'pod-kill-failover': { scenario: 'pod-kill', head: 'canary-failover-6500ms' },
  // Each kill's bump longer on the head only: haproxy-ingress applies endpoint changes at
  // most every 4 s instead of 2 s (overlays/canary-update-4s), so its HAProxy keeps
  // sending to a killed pod for longer. Its size is measured, not assumed.
  'pod-kill-update-4s': { scenario: 'pod-kill', head: 'canary-update-4s' },
  // The same every 2.5 s (4 s held requests to k6's 10 s timeout at every kill, 2026-11-27).
  'pod-kill-update-2500ms': { scenario: 'pod-kill', head: 'canary-update-2500ms' },
  // Traefik's failover canary: the head applies provider changes at most every 4 s, not
  // 2 s (overlays/canary-throttle-4s), so a kill's endpoint updates reach it later.
  'pod-kill-throttle-4s': { scenario: 'pod-kill', head: 'canary-throttle-4s' },
  // About ×1.10 at p99 where the steady cell's p99 is 4-10 ms (200/s a side): 1 ms on a
  // third of the head's requests (4 ms on a quarter made ×1.2-×1.8, 2026-11-27).
  'steady-delay-1ms-35': { scenario: 'steady', set: { headDelay: '1ms', headDelayShare: '35%' } },
};

/** init's bench.yaml for the controller, its pr matrix made an A/A duet of N pairs. */
export function initConfig(controller, pairs, canary = null, { rates = [], scenarios = null, steadyRate = null } = {}) {
  const dir = mkdtempSync(join(tmpdir(), `tg-init-${controller}-`));
  const r = spawnSync(process.execPath, [CLI, 'init', '--controller', controller, '--dir', dir], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`tailgate init failed: ${r.stderr}`);
  const file = join(dir, 'bench.yaml');
  const doc = parse(readFileSync(file, 'utf8'));
  // init's values file is the catalog's (and a comment): without it, the run's bench.yaml
  // copied beside its results loads there too (gate, seq-prs.js).
  delete doc.controllers[controller].values;
  const pr = doc.matrices.pr;
  if (pr.compare !== 'concurrent') throw new Error(`${controller}: init writes no duet (compare: ${pr.compare})`);
  // Offline kind here: the profile says which runner class; this machine is that size.
  pr.repetitions = pairs;
  pr.head = `${controller}:default`;
  // Measured as fixed pairs (seq-prs.js replays them as sequential PRs), both of init's
  // duet cells — pr's steady and pr-failover's pod-kill — in one cluster.
  delete pr.maxRepetitions;
  pr.scenarios = ['steady', 'pod-kill'];
  // --rates 200,100: steady at other rates beside init's (steady-200, …), same pairs.
  for (const r of rates) {
    doc.scenarios[`steady-${r}`] = { ...doc.scenarios.steady, rate: r };
    pr.scenarios.push(`steady-${r}`);
  }
  if (scenarios) pr.scenarios = scenarios;
  if (steadyRate) doc.scenarios.steady.rate = steadyRate;
  // --canary a,b: several canaries at once (a head tuning that changes failover changes
  // nothing a steady cell meets: no pod dies there).
  const canaries = canary ? canary.split(',').map((name) => CANARIES[name]) : [];
  for (const c of canaries) {
    if (c.head) {
      doc.tunings = { ...doc.tunings, [c.head]: { description: `canary ${canary}` } };
      pr.head = `${controller}:${c.head}`;
    }
  }
  if (canaries.length) {
    pr.scenarios = scenarios ?? [...new Set(canaries.map((c) => c.scenario))];
    // A canary is the cluster's, not its scenario's: the backend's delay or error canary
    // and a head tuning reach every cell of the run (validate refuses a matrix whose
    // scenarios differ in one) — A/A and canary runs are separate runs.
    for (const c of canaries) for (const s of pr.scenarios) Object.assign(doc.scenarios[s], c.set ?? {});
    // A duet canary belongs to kind duets only (validate): the local matrix goes.
    delete doc.matrices.local;
  }
  writeFileSync(file, stringify(doc));
  return file;
}

function run(controller, pairs, canary, opts) {
  const config = initConfig(controller, pairs, canary, opts);
  const out = mkdtempSync(join(tmpdir(), `tg-init-prs-${controller}-`));
  const r = spawnSync(
    process.execPath,
    [CLI, 'run', '--config', config, '--matrix', 'pr', '--out', out, '--no-confirm'],
    { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] },
  );
  const dir = join(out, readdirSync(out)[0]);
  // The run's bench.yaml beside its results, where `gate` and seq-prs.js read it.
  copyFileSync(config, join(dir, 'bench.yaml'));
  rmSync(dirname(config), { recursive: true, force: true });
  if (![0, 1, 3].includes(r.status)) throw new Error(`tailgate run exited ${r.status} (${dir})`);
  return gate(dir, controller);
}

/** A gated PR as its check shows it: fail (a regression), inconclusive (red too), pass. */
export function prOutcome(verdict) {
  const cells = verdict.cells.map((c) => c.verdict);
  if (cells.includes('regression')) return 'fail';
  return cells.some((x) => x !== 'pass' && x !== 'improvement') ? 'inconclusive' : 'pass';
}

/** The run's pairs, per scenario: [[base result, head result], …] by repetition. */
export function pairsByScenario(dir, controller) {
  const out = {};
  const root = join(dir, 'base', controller, 'default');
  for (const scenario of readdirSync(root)) {
    // A canary's head may run another tuning (pr.head): its own folder under head/.
    const tuning = (side) => (side === 'base' ? 'default' : readdirSync(join(dir, 'head', controller))[0]);
    const rep = (side, i) => join(dir, side, controller, tuning(side), scenario, `rep-${i}`, 'result.json');
    const pairs = [];
    for (let i = 1; existsSync(rep('base', i)) && existsSync(rep('head', i)); i++)
      pairs.push(['base', 'head'].map((s) => resultRep(JSON.parse(readFileSync(rep(s, i), 'utf8')), `${s} ${i}`)));
    out[scenario] = pairs;
  }
  return out;
}

export function gate(dir, controller, config = join(dir, 'bench.yaml')) {
  const cfg = loadBench(config);
  const matrix = cfg.matrices.pr;
  const gateRules = matrix.gate ?? cfg.gate;
  const byScenario = pairsByScenario(dir, controller);
  const n = Math.min(...Object.values(byScenario).map((p) => p.length));
  const prs = Math.floor(n / PR_PAIRS);
  const slice = (pairs, k) => {
    const ps = Array.from({ length: PR_PAIRS }, (_, j) => pairs[(k * PR_PAIRS + j) % n]);
    return { base: ps.map(([b]) => b), head: ps.map(([, h]) => h) };
  };
  const counts = { pass: 0, inconclusive: 0, fail: 0, rounds: 0 };
  const verdicts = [];
  for (let k = 0; k < prs; k++) {
    const cells = Object.entries(byScenario).map(([s, pairs]) => ({
      cell: `${controller}/default/${s}`,
      ...slice(pairs, k),
    }));
    let v = gateCells(cells, gateRules, { mode: 'paired' });
    if (v.confirm.length) {
      counts.rounds++;
      const fresh = new Map(
        Object.entries(byScenario).map(([s, p]) => [`${controller}/default/${s}`, slice(p, k + 1)]),
      );
      v = gateCells(cells, gateRules, { mode: 'paired', confirm: fresh });
    }
    const outcome = prOutcome(v);
    counts[outcome]++;
    verdicts.push({
      pr: k + 1,
      outcome,
      cells: v.cells.map((c) => ({
        cell: c.cell,
        verdict: c.verdict,
        reasons: c.reasons,
        seesP99: c.metrics?.find((m) => m.metric === 'p99')?.detectable?.ratio80 ?? null,
      })),
    });
  }
  const perScenario = Object.fromEntries(
    Object.entries(byScenario).map(([s, pairs]) => {
      const logs = pairs.map(([b, h]) => Math.log(h.percentiles.p99 / b.percentiles.p99));
      // Which side k6 served first: the base in odd pairs (engines/load.js duetSides).
      const onA = pairs.filter(([b]) => b.meta?.ab?.side === 'a').length;
      const leanA = pairs.filter(
        ([b, h]) =>
          (b.meta?.ab?.side === 'a' ? h : b).percentiles.p99 > (b.meta?.ab?.side === 'a' ? b : h).percentiles.p99,
      ).length;
      const mean = logs.reduce((a, x) => a + x, 0) / logs.length;
      const sd = Math.sqrt(logs.reduce((a, x) => a + (x - mean) ** 2, 0) / Math.max(1, logs.length - 1));
      return [
        s,
        {
          pairs: pairs.length,
          p99Ratio: pairs.map(([b, h]) => Number((h.percentiles.p99 / b.percentiles.p99).toFixed(2))),
          sdLogP99: Number(sd.toFixed(3)),
          baseOnSideA: onA,
          sideBSlowerThanA: leanA,
          droppedPairs: pairs.filter(([b]) => b.load.droppedIterations > 0).length,
          droppedMax: Math.max(...pairs.map(([b]) => b.load.droppedIterations)),
          errors: {
            base: pairs.reduce((a, [b]) => a + b.errors.total, 0),
            head: pairs.reduce((a, [, h]) => a + h.errors.total, 0),
          },
        },
      ];
    }),
  );
  return { dir, prs, ...counts, perScenario, verdicts };
}

// The commands below only when run as a script (seq-prs.js imports this file).
const main = import.meta.url === pathToFileURL(process.argv[1] ?? '').href;
const [cmd, ...args] = main ? process.argv.slice(2) : [];
if (cmd === 'run') {
  const flag = (name) => (args.indexOf(name) >= 0 ? args[args.indexOf(name) + 1] : null);
  const values = new Set(['--canary', '--rates', '--scenarios', '--steady-rate'].map(flag));
  const [controller, pairs = '30'] = args.filter((a) => !a.startsWith('--') && !values.has(a));
  const canary = flag('--canary');
  if (canary?.split(',').some((c) => !CANARIES[c])) throw new Error(`--canary: of ${Object.keys(CANARIES).join(', ')}`);
  const rates = flag('--rates')?.split(',').map(Number) ?? [];
  const scenarios = flag('--scenarios')?.split(',') ?? null;
  const steadyRate = Number(flag('--steady-rate')) || null;
  console.log(JSON.stringify(run(controller, Number(pairs), canary, { rates, scenarios, steadyRate }), null, 1));
} else if (cmd === 'gate') {
  const [dir, controller, config] = args;
  console.log(JSON.stringify(gate(dir, controller, config), null, 1));
} else if (cmd) {
  console.error(
    `usage: init-prs.js run <controller> [pairs] [--canary ${Object.keys(CANARIES).join('|')}] | gate <run dir> <controller> [bench.yaml]`,
  );
  process.exit(2);
}
