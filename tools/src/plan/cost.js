// What a matrix costs before it runs: jobs, wall time of the longest job and the
// runner-minutes of the whole PR. A model, not a measurement. Its constants are the
// set-up and per-run overheads seen where it runs: the local target (~4 s around each
// run on the 2-core machine), kind on a GitHub-hosted runner (checkouts, tool set-up,
// image pulls: quoted, not measured here) and kind on a machine that already has its
// tools and images (this one: 59 s from start to the first request of a duet, both
// releases installed; 2.5–2.7 s between the runs of 15- and 30-pair duets). `make perf`
// checks the local part and a kind duet's against real runs.
import { scenarioMs } from '../config/normalise.js';
import { targetRules as target } from '../registry/target-rules.js';

// headInstallS: a duet's second release (its install, rollout and route wait) in the
// cluster that is already up.
export const MODEL = Object.freeze({
  local: { setupS: 0, perControllerS: 0, perRunS: 4, headInstallS: 0 },
  kind: { setupS: 150, perControllerS: 120, perRunS: 5, headInstallS: 40 },
  // kind where tools and images are already in place (a laptop, a self-hosted runner).
  'kind-here': { setupS: 0, perControllerS: 20, perRunS: 3, headInstallS: 40 },
  cluster: { setupS: 60, perControllerS: 60, perRunS: 25, headInstallS: 40 },
});

// `routes: N` carried before each run: applied, every one probed, deleted after. On this
// machine the apply is most of it (1,000 objects: 18 s; all answering 19 s after it began;
// a 1,000-route cell cost about 50 s against 20 s of load: docs/routes.md).
export const CARRY = Object.freeze({ fixedS: 2, perRouteS: 0.028 });
const carryS = (n) => (n ? CARRY.fixedS + n * CARRY.perRouteS : 0);

// GitHub-hosted runner labels: everything is installed and pulled per job.
const HOSTED = /^(ubuntu|windows|macos)-/;

function modelOf(plan, cfg) {
  const t = plan.matrix.target;
  const runner = cfg?.profiles?.[plan.matrix.profile]?.runner ?? '';
  return t === 'kind' && runner && !HOSTED.test(runner) ? MODEL['kind-here'] : MODEL[t];
}

// Both sides in one run: `head:`/--ab-head, or a PR's duet (compare: concurrent).
function isDuet(plan) {
  return Boolean(plan.ab) || plan.matrix.compare === 'concurrent';
}

/**
 * How the PR workflow splits a matrix into jobs: the local target is one job; on a
 * cluster each cell (controller × tuning × scenario) is a job with its repetitions inside
 * it — except duets, whose one cluster runs every tuning and scenario of its controller
 * (nothing is gained from a second runner: both sides already share everything).
 * -> [[cells of one job], ...]
 */
export function jobsOf(plan) {
  if (target(plan.matrix.target).oneJob) return [plan.cells];
  const duet = isDuet(plan);
  const jobs = new Map();
  for (const c of plan.cells) {
    const key = duet ? c.controllerName : c.key;
    jobs.set(key, [...(jobs.get(key) ?? []), c]);
  }
  return [...jobs.values()];
}

/** opts.cfg: the bench config (its profiles); opts.oneProcess: `tailgate run` runs every cell in one process. */
export function estimateCost(plan, { cfg = null, oneProcess = false } = {}) {
  const m = modelOf(plan, cfg);
  const paired = plan.matrix.compare === 'paired' ? 2 : 1;
  // A duet runs base and head in one run: one job's runs, twice the requests.
  const duet = isDuet(plan);
  const sides = duet ? 2 : paired;
  const loadOf = (c) => (scenarioMs(c.scenario).warmup + scenarioMs(c.scenario).duration) / 1000;
  const jobCells = oneProcess ? [plan.cells] : jobsOf(plan);
  // Paired on a cluster target: each side's repetition is a `tailgate run` of its own
  // checkout (tools/ci/paired-cell.sh), with its own cluster and install.
  const clusterPerRun = paired === 2 && !target(plan.matrix.target).oneJob;
  const perRun = m.perRunS + (clusterPerRun ? m.perControllerS : 0);
  const jobs = jobCells.map(
    (cells) =>
      m.setupS +
      (clusterPerRun ? 0 : new Set(cells.map((c) => c.controllerName)).size) *
        (m.perControllerS + (duet ? m.headInstallS : 0)) +
      cells.reduce((a, c) => a + (loadOf(c) + carryS(c.scenario.routes) + perRun) * paired, 0),
  );
  const loadS = plan.cells.reduce((a, c) => a + loadOf(c) * paired, 0);
  const requests =
    plan.cells.reduce((a, c) => a + (c.scenario.rate ?? 0) * (scenarioMs(c.scenario).duration / 1000), 0) * sides;
  // Sequential pairs (maxRepetitions): optional repetitions run only for undecided cells, so
  // the cost is a range — every cell decided at `repetitions` pairs, up to none decided early.
  const fixed = plan.cells.filter((c) => !c.optional);
  const least = fixed.length < plan.cells.length ? estimateCost({ ...plan, cells: fixed }, { cfg, oneProcess }) : null;
  return {
    jobs: jobs.length,
    longestJobS: Math.round(Math.max(...jobs)),
    ...(least && {
      least: { runs: fixed.length, longestJobS: least.longestJobS, runnerMinutes: least.runnerMinutes },
    }),
    runnerMinutes: Math.round(jobs.reduce((a, b) => a + b, 0) / 6) / 10,
    loadShare: Math.round((100 * loadS) / jobs.reduce((a, b) => a + b, 0)),
    requests: Math.round(requests),
    paired: paired === 2,
    duet,
  };
}

const min = (s) => (s >= 90 ? `${Math.round(s / 60)} min` : `${s} s`);

/**
 * Several gates, each its own job on its own runner, side by side: a PR waits for the
 * longest and uses their sum. gates: [{ plan, cost }] -> one line, fewest–most where a
 * gate's cells may stop early.
 */
export function describeGates(gates) {
  const lo = (c) => c.least ?? c;
  const span = (a, b, f) => (f(a) === f(b) ? f(b) : `${f(a)}–${f(b)}`);
  const longest = (pick) => Math.max(...gates.map((g) => pick(g.cost).longestJobS));
  const sum = (pick) => gates.reduce((a, g) => a + pick(g.cost).runnerMinutes, 0);
  const [fast, slow] = [longest(lo), longest((c) => c)];
  const waits = slow >= 90 ? `${span(fast, slow, (s) => Math.round(s / 60))} min` : `${span(fast, slow, String)} s`;
  return (
    `${gates.length} gates, each its own job, side by side: a PR waits ≈ ${waits} (the longest job) ` +
    `and uses ≈ ${span(
      sum(lo),
      sum((c) => c),
      Math.round,
    )} runner-minutes (the gates' sum) — a model, not a measurement (tools/src/plan/cost.js)`
  );
}

export function describeCost(plan, cost = estimateCost(plan)) {
  const l = cost.least;
  // A range where cells may stop early: fewest–most.
  const range = (lo, hi, f = (x) => x) => (l && f(lo) !== f(hi) ? `${f(lo)}–${f(hi)}` : f(hi));
  return (
    `${range(l?.runs, plan.cells.length)} runs in ${cost.jobs} job${cost.jobs > 1 ? 's' : ''}${cost.paired ? ' (paired: base and head each)' : cost.duet ? ' (duets: base and head at once, one job per controller)' : ''}; ${l ? 'up to ' : ''}${cost.requests.toLocaleString('en')} requests; ` +
    `longest job ≈ ${range(l?.longestJobS, cost.longestJobS, min)}, ≈ ${range(l?.runnerMinutes, cost.runnerMinutes)} runner-minutes in all (${cost.loadShare}% of it under load); ` +
    (l
      ? `a cell adds pairs (up to ${plan.sequential?.maxPairs ?? 'maxRepetitions'}) only while undecided, with no confirmation round (model: tools/src/plan/cost.js)`
      : 'a confirmation round, when a cell needs one, re-runs that cell once more (model: tools/src/plan/cost.js)')
  );
}
