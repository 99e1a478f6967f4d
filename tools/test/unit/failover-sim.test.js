// The failover gate (gate.failover, compare/failover.js) as a user meets it: duet PRs of
// a steady and a pod-kill cell, 3 pairs of 8 kills, kills like haproxy-ingress's on kind
// (helpers/failover-sim.js: every kill stalls both sides for 0.3–5 s, the sides within a
// few percent but for 1 kill in 6), through the real gate — Holm over the PR, the
// confirmation round with fresh pairs. Seeded: the same figures every run.
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
const CANARY = { headFactor: 1.3 };
// The first look at the kind runs (8 kills of one run): median 1 s, sd of the log 0.8,
// one side ×5 at 1 kill in 10.
const FIRST_LOOK = { medianMs: 1000, spreadSd: 0.8, outlier: 0.1, outlierLog: [Math.log(5), Math.log(5)] };

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

test('failover gate simulation (kind-like kills): no-op PRs fail ≤ 5%; a ×1.3 failover is caught ≥ 80% (3 pairs × 8 kills)', (t) => {
  const noop = rates(200, {});
  assert.ok(noop.red <= 0.05, `no-op PRs failed ${pct(noop.red)}`);
  const canary = rates(100, CANARY);
  assert.ok(canary.red >= 0.8, `×1.3 caught ${pct(canary.red)}`);
  assert.ok(canary.failover >= 0.8, `×1.3 caught by the failover test ${pct(canary.failover)}`);
  const six = rates(100, { ...CANARY, pairs: 6 });
  assert.ok(six.failover >= canary.failover, `6 pairs caught ${pct(six.failover)}`);
  t.diagnostic(
    `3 pairs: no-op ${pct(noop.red)} failed (failover ${pct(noop.failover)}); ×1.3 caught ${pct(canary.red)} (failover ${pct(canary.failover)}, decided ${pct(canary.decided)}); 6 pairs: ×1.3 caught ${pct(six.red)} (failover ${pct(six.failover)})`,
  );
});

test('failover gate simulation: the first look’s kills (median 1 s, sd 0.8, ×5 outliers at 1 in 10)', (t) => {
  const noop = rates(100, FIRST_LOOK);
  const canary = rates(100, { ...FIRST_LOOK, ...CANARY });
  const six = rates(50, { ...FIRST_LOOK, ...CANARY, pairs: 6 });
  assert.ok(noop.red <= 0.05, `no-op PRs failed ${pct(noop.red)}`);
  assert.ok(canary.failover >= 0.8, `×1.3 caught by the failover test ${pct(canary.failover)}`);
  t.diagnostic(
    `first look: no-op ${pct(noop.red)} failed; ×1.3 caught ${pct(canary.red)} at 3 pairs (failover ${pct(canary.failover)}), ${pct(six.red)} at 6 (failover ${pct(six.failover)})`,
  );
});

test('failover gate simulation (q = 0.3, a side stalls at 3 kills in 10): too few kills stall both to decide with 3 pairs — it says so, and stays green', (t) => {
  const noop = rates(40, { q: 0.3 });
  const canary = rates(40, { q: 0.3, ...CANARY });
  assert.ok(noop.red <= 0.05, `no-op PRs failed ${pct(noop.red)}`);
  assert.ok(canary.decided <= 0.2, `decided ${pct(canary.decided)}`);
  t.diagnostic(
    `q=0.3: no-op ${pct(noop.red)} failed; ×1.3 caught ${pct(canary.red)} (failover ${pct(canary.failover)}); the test could decide in ${pct(canary.decided)} of PRs`,
  );
});

test('failover gate simulation: the two sides of a kill twice as loose (sd 0.3 of their log ratio)', (t) => {
  const noop = rates(40, { pairSd: 0.3 });
  const canary = rates(40, { pairSd: 0.3, ...CANARY });
  assert.ok(noop.red <= 0.1, `no-op PRs failed ${pct(noop.red)}`);
  t.diagnostic(`pair sd 0.3: no-op ${pct(noop.red)} failed; ×1.3 caught ${pct(canary.red)}`);
});

test('failover simulation: kills that stalled one side, floored and tested with the rest, drown a ×1.3 stall (q = 0.6)', (t) => {
  // The comparison behind failover.js's choice, where which side stalls is luck: the same
  // PRs, signed-rank at α alone (no Holm, no threshold) on every kill that stalled either
  // side, each side floored, against the kills that stalled both.
  const caught = (discordant) => {
    let k = 0;
    for (let s = 1; s <= 100; s++) {
      const [, cell] = simulateFailoverPr(s * 7919, { ...CANARY, q: 0.6 });
      const { d } = failoverEvidence(matchPairs(cell.base, cell.head).pairs, 100, { discordant });
      if (signedRank(d).pGreater <= 0.05) k++;
    }
    return k / 100;
  };
  const all = caught(true);
  const both = caught(false);
  assert.ok(both > all + 0.2, `both-stalled ${pct(both)} vs all kills ${pct(all)}`);
  t.diagnostic(
    `×1.3, q=0.6, significant at 5% alone: kills that stalled both ${pct(both)}; every kill floored ${pct(all)}`,
  );
});
