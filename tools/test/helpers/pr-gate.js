// Gates simulated PRs the way the PR workflow does: paired, and a confirmation round
// with fresh pairs for the cells the first verdict lists in `confirm`.
import { gateCells } from '../../src/compare/gate.js';
import { simulatePr } from './pr-sim.js';

// opts.simulate: the PR simulator (pr-sim.js by default, request-sim.js request by request).
export function gateSimulatedPr(seed, gate, opts) {
  const simulate = opts.simulate ?? simulatePr;
  const inputs = simulate(seed, opts);
  const mode = opts.mode ?? 'paired';
  let res = gateCells(inputs, gate, { mode });
  const rounds = res.confirm.length;
  if (rounds) {
    const fresh = simulate(seed + 1, opts).map((c) => ({ ...c, base: later(c.base), head: later(c.head) }));
    res = gateCells(inputs, gate, { mode, confirm: new Map(fresh.map((c) => [c.cell, c])) });
  }
  return {
    cells: res.cells,
    failed: res.cells.filter((c) => c.verdict === 'regression').map((c) => c.cell),
    inconclusive: res.cells.filter((c) => c.verdict === 'inconclusive').map((c) => c.cell),
    rounds,
  };
}

// Fresh pairs run after the first ones: later pair numbers and start times.
function later(reps) {
  return reps.map((r) => ({
    ...r,
    meta: {
      ...r.meta,
      pair: r.meta.pair + 100,
      startedAt: new Date(Date.parse(r.meta.startedAt) + 3_600_000).toISOString(),
    },
  }));
}

/**
 * Share of `n` simulated PRs that fail, that come out inconclusive (a red check too, with
 * no regression), that are green, and that fail in `cell` (when an effect is injected).
 */
export function prRates(n, gate, opts = {}) {
  let failed = 0;
  let inconclusive = 0;
  let caught = 0;
  let rounds = 0;
  for (let s = 1; s <= n; s++) {
    const v = gateSimulatedPr(s * 7919, gate, opts);
    if (v.failed.length) failed++;
    else if (v.inconclusive.length) inconclusive++;
    if (opts.effect?.cell !== undefined && v.failed.includes(`c${opts.effect.cell}/default/s`)) caught++;
    if (v.rounds) rounds++;
  }
  return {
    failed: failed / n,
    inconclusive: inconclusive / n,
    green: (n - failed - inconclusive) / n,
    caught: caught / n,
    rounds: rounds / n,
  };
}
