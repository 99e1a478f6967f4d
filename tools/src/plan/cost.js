// What a matrix costs before it runs: jobs, wall time of the longest job and the
// runner-minutes of the whole PR. A model, not a measurement — its constants are the
// set-up and per-run overheads seen on the two places it runs (2-core local machine:
// ~4 s around each local run; GitHub-hosted kind jobs: set-up, cluster and controller
// install before the first request); `make perf` checks the local part against real
// runs. One job per cell on kind/cluster (repetitions inside it), one job for local.
import { parseDuration } from '../config/units.js';
import { target } from '../targets/index.js';

// headInstallS: a duet's second release (its install, rollout and route wait) in the
// cluster that is already up.
export const MODEL = Object.freeze({
  local: { setupS: 0, perControllerS: 0, perRunS: 4, headInstallS: 0 },
  kind: { setupS: 150, perControllerS: 120, perRunS: 25, headInstallS: 40 },
  cluster: { setupS: 60, perControllerS: 60, perRunS: 25, headInstallS: 40 },
});

export function estimateCost(plan) {
  const m = MODEL[plan.matrix.target];
  const paired = plan.matrix.compare === 'paired' ? 2 : 1;
  // A duet runs base and head in one run: one job's runs, twice the requests.
  const duet = Boolean(plan.ab) || plan.matrix.compare === 'concurrent';
  const sides = duet ? 2 : paired;
  const loadOf = (c) => (parseDuration(c.scenario.warmup) + parseDuration(c.scenario.duration)) / 1000;
  const byCell = new Map();
  for (const c of plan.cells) byCell.set(c.key, (byCell.get(c.key) ?? 0) + (loadOf(c) + m.perRunS) * paired);
  const oneJob = target(plan.matrix.target).oneJob;
  const jobs = oneJob
    ? [
        [...byCell.values()].reduce((a, b) => a + b, 0) +
          m.setupS +
          m.perControllerS * new Set(plan.cells.map((c) => c.controllerName)).size,
      ]
    : [...byCell.values()].map((s) => s + m.setupS + m.perControllerS + (duet ? m.headInstallS : 0));
  const loadS = plan.cells.reduce((a, c) => a + loadOf(c) * paired, 0);
  const requests =
    plan.cells.reduce((a, c) => a + (c.scenario.rate ?? 0) * (parseDuration(c.scenario.duration) / 1000), 0) * sides;
  return {
    jobs: jobs.length,
    longestJobS: Math.round(Math.max(...jobs)),
    runnerMinutes: Math.round(jobs.reduce((a, b) => a + b, 0) / 6) / 10,
    loadShare: Math.round((100 * loadS) / jobs.reduce((a, b) => a + b, 0)),
    requests: Math.round(requests),
    paired: paired === 2,
    duet,
  };
}

export function describeCost(plan, cost = estimateCost(plan)) {
  const min = (s) => (s >= 90 ? `${Math.round(s / 60)} min` : `${s} s`);
  return (
    `${plan.cells.length} runs in ${cost.jobs} job${cost.jobs > 1 ? 's' : ''}${cost.paired ? ' (paired: base and head each)' : cost.duet ? ' (duets: base and head at once)' : ''}; ${cost.requests.toLocaleString('en')} requests; ` +
    `longest job ≈ ${min(cost.longestJobS)}, ≈ ${cost.runnerMinutes} runner-minutes in all (${cost.loadShare}% of it under load); ` +
    'a confirmation round, when a cell needs one, re-runs that cell once more (model: tools/src/plan/cost.js)'
  );
}
