// The failover gate (gate.failover, compare/failover.js) as a user meets it: duet PRs of
// a steady and a pod-kill cell, 3 pairs of 8 kills, kills like haproxy-ingress's
// (helpers/failover-sim.js), through the real gate — Holm over the PR, the confirmation
// round with 3 fresh pairs. Seeded: the same figures every run.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gateCells } from '../../src/compare/gate.js';
import { failoverEvidence, FAILOVER_METRIC } from '../../src/compare/failover.js';
import { matchPairs } from '../../src/compare/pairs.js';
import { signedRank } from '../../src/compare/stats.js';
import { applyDefaults } from '../../src/config/defaults.js';
import { simulateFailoverPr } from '../helpers/failover-sim.js';

const gate = applyDefaults({ controllers: {}, scenarios: {}, matrices: {} }).gate;
const pct = (x) => `${(100 * x).toFixed(1)}%`;
const CANARY = { headStallMs: 6500 };

function pr(seed, opts) {
  const inputs = simulateFailoverPr(seed, opts);
  let res = gateCells(inputs, gate, { mode: 'paired' });
  if (res.confirm.length) {
    const fresh = simulateFailoverPr(seed + 1, { ...opts, pairOffset: 100 });
    res = gateCells(inputs, gate, { mode: 'paired', confirm: new Map(fresh.map((c) => [c.cell, c])) });
  }
  return res;
}

function rates(n, opts) {
  let red = 0;
  let failover = 0;
  let decided = 0;
  for (let s = 1; s <= n; s++) {
    const res = pr(s * 7919, opts);
    if (res.cells.some((c) => c.verdict === 'regression')) red++;
    const m = res.cells[1].metrics.find((x) => x.metric === FAILOVER_METRIC);
    if (m.status === 'regression') failover++;
    if (m.reliable) decided++;
  }
  return { red: red / n, failover: failover / n, decided: decided / n };
}

test('failover gate simulation (q = 0.6): no-op PRs fail ≤ 5%; a ×1.3 failover is caught ≥ 80% (3 pairs × 8 kills)', (t) => {
  const noop = rates(200, {});
  assert.ok(noop.red <= 0.05, `no-op PRs failed ${pct(noop.red)}`);
  const canary = rates(100, CANARY);
  assert.ok(canary.red >= 0.8, `×1.3 caught ${pct(canary.red)}`);
  assert.ok(canary.failover >= 0.8, `×1.3 caught by the failover test ${pct(canary.failover)}`);
  t.diagnostic(
    `q=0.6: no-op ${pct(noop.red)} failed (failover ${pct(noop.failover)}); ×1.3 caught ${pct(canary.red)} (failover ${pct(canary.failover)}); decided ${pct(canary.decided)}`,
  );
});

test('failover gate simulation (q = 0.3): too few kills stall both sides to decide with 3 pairs — it says so, and stays green', (t) => {
  const noop = rates(40, { q: 0.3 });
  const canary = rates(40, { q: 0.3, ...CANARY });
  assert.ok(noop.red <= 0.05, `no-op PRs failed ${pct(noop.red)}`);
  t.diagnostic(
    `q=0.3: no-op ${pct(noop.red)} failed; ×1.3 caught ${pct(canary.red)} (failover ${pct(canary.failover)}); the test could decide in ${pct(canary.decided)} of PRs`,
  );
});

test('failover gate simulation: kills three times as jittery (sd 0.15 per side)', (t) => {
  const noop = rates(40, { jitterSd: 0.15 });
  const canary = rates(40, { jitterSd: 0.15, ...CANARY });
  assert.ok(noop.red <= 0.1, `no-op PRs failed ${pct(noop.red)}`);
  t.diagnostic(`jitter 0.15, q=0.6: no-op ${pct(noop.red)} failed; ×1.3 caught ${pct(canary.red)}`);
});

test('failover simulation: kills that stalled one side, floored and tested with the rest, drown a ×1.3 stall', (t) => {
  // The comparison behind failover.js's choice: the same PRs, signed-rank at α alone
  // (no Holm, no threshold) on every kill that stalled either side, each side floored.
  const caught = (discordant) => {
    let k = 0;
    for (let s = 1; s <= 100; s++) {
      const [, cell] = simulateFailoverPr(s * 7919, CANARY);
      const { d } = failoverEvidence(matchPairs(cell.base, cell.head).pairs, 100, { discordant });
      if (signedRank(d).pGreater <= 0.05) k++;
    }
    return k / 100;
  };
  const all = caught(true);
  const both = caught(false);
  assert.ok(both > all + 0.3, `both-stalled ${pct(both)} vs all kills ${pct(all)}`);
  t.diagnostic(
    `×1.3, q=0.6, significant at 5% alone: kills that stalled both ${pct(both)}; every kill floored ${pct(all)}`,
  );
});
