// The gate's per-PR error rates and power, from PRs drawn request by request
// (helpers/request-sim.js: real HDR histograms with a knee at p99, summarised by the
// result reader's own code), in the three worlds users meet:
// - interleaved pairs, 4 cells × 3 pairs, at the noise an independent review's simulator
//   had (within-run sd of log p99 ≈ 0.15 at 10k requests, pair ratio ≈ 0.27);
// - duets on kind, 15 s at 300/s per side (pair ratio sd ≈ 0.18, within ≈ 0.07; make
//   perf measured 0.187 and 0.089);
// - duets of 45 s (pair ratio ≈ 0.07; make perf measured 0.047 on a quiet machine).
// Seeded; the figures are printed and quoted in docs/gate.md. gate-sim.test.js draws
// quantiles directly (fast, many PRs); the last test checks it is not the optimistic one.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyDefaults } from '../../src/config/defaults.js';
import { prRates } from '../helpers/pr-gate.js';
import { KNEE, simulateRequestPr } from '../helpers/request-sim.js';

const gate = applyDefaults({ controllers: {}, scenarios: {}, matrices: {} }).gate;
const pct = (x) => `${(100 * x).toFixed(0)}%`;
const rates = (n, g, opts) => prRates(n, g, { simulate: simulateRequestPr, ...opts });

// p99 on a sharp knee: 1% of requests in a slow mode 6× the body, little run-to-run drift.
const SHARP = { ...KNEE, slowShare: 0.01, slowMs: 3, runSd: { body: 0.05, slow: 0.08, share: 0.12 } };
const DUET_15S = { duet: true, requests: 4500, shared: 0.6, cells: 1 };
const DUET_45S = { duet: true, requests: 13_500, shared: 0.97, cells: 1 };

test('request-level simulation, interleaved pairs at a sharp knee: no-op PRs fail ≤ 5%; ×1.5 p99 caught about half the time, no less often than the quantile-level simulation says', () => {
  const noop = rates(100, gate, { knee: SHARP });
  assert.ok(noop.failed <= 0.05, `no-op PRs failed ${pct(noop.failed)}`);
  const x15 = rates(100, gate, { knee: SHARP, effect: { cell: 1, p99: 1.5 } });
  // What interleaving can do at this noise (the reason duets exist): not a goal, a floor
  // that says the procedure has not lost what it had.
  assert.ok(x15.caught >= 0.35, `×1.5 caught ${pct(x15.caught)}`);
  // pr-sim.js at this world's measured noise (pair ratio 0.27, within 0.15) must not be
  // the optimistic one of the two.
  const quantiles = prRates(100, gate, { sdLog: 0.266, withinSd: 0.154, effect: { cell: 1, p99: 1.5 } });
  assert.ok(quantiles.caught <= x15.caught + 0.1, `quantiles ${pct(quantiles.caught)} vs requests ${pct(x15.caught)}`);
  console.log(
    `# request-level, interleaved 4 cells × 3 pairs: no-op ${pct(noop.failed)}; ×1.5 caught ${pct(x15.caught)} (quantile-level at the same noise: ${pct(quantiles.caught)})`,
  );
});

test('request-level simulation, duets at kind 15 s noise: no-op ≤ 5%; ×1.5 p99 and ×3 errors caught ≥ 80% with 3 pairs', () => {
  const noop = rates(200, gate, DUET_15S);
  assert.ok(noop.failed <= 0.05, `no-op duet PRs failed ${pct(noop.failed)}`);
  const x15 = rates(150, gate, { ...DUET_15S, effect: { cell: 0, p99: 1.5 } });
  assert.ok(x15.caught >= 0.8, `×1.5 caught ${pct(x15.caught)}`);
  const errors = rates(100, gate, { ...DUET_15S, effect: { cell: 0, errors: 3 } });
  assert.ok(errors.caught >= 0.8, `×3 errors caught ${pct(errors.caught)}`);
  const x12 = rates(150, gate, { ...DUET_15S, effect: { cell: 0, p99: 1.2 } });
  console.log(
    `# request-level, duet 1 cell × 3 pairs of 15 s: no-op ${pct(noop.failed)}; ×1.5 ${pct(x15.caught)}, ×1.2 ${pct(x12.caught)}, ×3 errors ${pct(errors.caught)}`,
  );
});

test('request-level simulation, 45 s duets: ×1.2 p99 caught ≥ 80% once the matrix states its noise (assumedDuetCv 0.06); no-op ≤ 5%', () => {
  const quiet = { ...gate, assumedDuetCv: 0.06 };
  const noop = rates(150, quiet, DUET_45S);
  assert.ok(noop.failed <= 0.05, `no-op failed ${pct(noop.failed)}`);
  const x12 = rates(100, quiet, { ...DUET_45S, effect: { cell: 0, p99: 1.2 } });
  assert.ok(x12.caught >= 0.8, `×1.2 caught ${pct(x12.caught)}`);
  // The same setting on a runner that is not quiet (pair noise 0.17, measured here
  // beside make test) must not cry wolf: the cell's own variance and the replication
  // rule hold the line.
  const busy = rates(150, quiet, { ...DUET_45S, shared: 0.6 });
  assert.ok(busy.failed <= 0.05, `no-op on a busy runner failed ${pct(busy.failed)}`);
  const withDefault = rates(100, gate, { ...DUET_45S, effect: { cell: 0, p99: 1.2 } });
  console.log(
    `# request-level, 45 s duets: no-op ${pct(noop.failed)} (busy runner ${pct(busy.failed)}); ×1.2 caught ${pct(x12.caught)} (default assumedDuetCv 0.19: ${pct(withDefault.caught)})`,
  );
});
