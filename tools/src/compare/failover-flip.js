// The failover test's level, exact. Its parts (failover.js) share kills: a kill that held up
// more of the head's requests is usually one whose exposure was longer on the head too, so
// the exposure's test and the held-up test are far from independent, and halving the level
// for each (Bonferroni) paid for a freedom the two do not have. Under "no change" each
// kill's two sides are exchangeable — one events file, one load generator, the sides'
// roles swapped every other pair — so every kill's votes flip sign together with
// probability ½, whatever the others do. The test's statistic (the smaller of the two
// p-values) then has an exact distribution over those 2ⁿ flips, and its p-value is the
// chance of a statistic at least as small: the level α itself, not α/2 for each. On the
// recorded kills of four A/A runs at one level on PRs of 6 pairs this caught a 30% longer
// exposure 83, 95, 94, 68% where halving caught 79, 93, 90, 56% (no-op ≤ 2.3% at 1.25%,
// resampled by pair — tools/test/unit/failover-flip.test.js has the exact level).
//
// The distribution is of three counts — head-only of the kills that hit one side, longer on
// the head of those that hit both, more held up on the head — a grid of at most (m+1)(b+1)
// (h+1) cells built kill by kill. Its work is bounded (MAX_CELL_STEPS): beyond it the test
// keeps the Bonferroni bound, which is valid too, only wasteful.
import { fisherCombined, mcNemar } from './stats.js';

// Cells × kills the grid may take: 100 kills that all hit both sides and all held up
// different counts are 10⁶ cells × 100, a few hundred ms in node.
export const MAX_CELL_STEPS = 2e8;

const sign = (x) => (x > 0 ? 1 : x < 0 ? -1 : 0);

/**
 * Each kill's three votes, +1 for "worse on the head" (ev: failoverEvidence's, with floored
 * the exposure's resolution) -> [[oneSided, bothSided, heldUp]] of the kills with any vote.
 */
export function killVotes(ev, floored) {
  const out = [];
  ev.base.forEach((b, i) => {
    const h = ev.head[i];
    const one = b.hit === h.hit ? 0 : h.hit ? 1 : -1;
    const both = b.hit && h.hit ? sign(Math.log(floored(h.exposureMs) / floored(b.exposureMs))) : 0;
    const held = sign(h.heldUp - b.heldUp);
    if (one || both || held) out.push([one, both, held]);
  });
  return out;
}

/**
 * The sign-flip distribution of the votes' positive counts -> { dims, p: Float64Array over
 * the (m+1)(b+1)(h+1) grid, index (u·(b+1) + v)·(h+1) + w }, or null where it would take
 * more than MAX_CELL_STEPS.
 */
export function flipDistribution(votes) {
  const dims = [0, 1, 2].map((j) => votes.filter((v) => v[j] !== 0).length + 1);
  const cells = dims[0] * dims[1] * dims[2];
  if (cells * votes.length > MAX_CELL_STEPS) return null;
  let p = new Float64Array(cells);
  p[0] = 1;
  const stride = [dims[1] * dims[2], dims[2], 1];
  // The counts so far reach at most as many of each kind as the votes so far hold.
  for (const v of votes) {
    const next = new Float64Array(cells);
    // As recorded, each vote of +1 adds one; flipped, each of −1 does.
    const up = v.reduce((a, x, j) => a + (x > 0 ? stride[j] : 0), 0);
    const down = v.reduce((a, x, j) => a + (x < 0 ? stride[j] : 0), 0);
    for (let i = 0; i < cells; i++) {
      const q = p[i];
      if (!q) continue;
      next[i + up] += q / 2;
      next[i + down] += q / 2;
    }
    p = next;
  }
  return { dims, p };
}

/**
 * The failover test's p-values, exact over the kills' sign flips (votes: killVotes; used:
 * the names of the parts the test keeps — twoParts' and withHeldUp's, whose inclusion
 * depends only on which kills voted, which no flip changes) -> { pWorse, pBetter, minP }
 * or null (the grid too large: keep the Bonferroni bound). The statistic is the Bonferroni
 * test's before its doubling: the smaller of the exposure's p-value (McNemar on the
 * one-sided kills and the sign test on the others, Fisher where both are kept) and the
 * held-up sign test's.
 */
export function exactFailoverP(votes, used) {
  const dist = flipDistribution(votes);
  if (!dist) return null;
  const [m, b, h] = dist.dims.map((d) => d - 1);
  const [useOne, useBoth, useHeld] = ['oneSided', 'bothSided', 'heldUp'].map((n) => used.includes(n));
  const tail = (n) => Array.from({ length: n + 1 }, (_, u) => mcNemar(u, n - u));
  const [tm, tb, th] = [tail(m), tail(b), tail(h)];
  const exposure = (u, v) => (useOne && useBoth ? fisherCombined(tm[u], tb[v]) : useOne ? tm[u] : useBoth ? tb[v] : 1);
  const stat = (u, v, w) => Math.min(exposure(u, v), useHeld ? th[w] : 1);
  const count = (j) => votes.filter((x) => x[j] > 0).length;
  const [u0, v0, w0] = [count(0), count(1), count(2)];
  // Worse: counts this high or more extreme; better: the same of the counts the other way.
  const worse = stat(u0, v0, w0);
  const better = stat(m - u0, b - v0, h - w0);
  const best = stat(m, b, h);
  const eps = 1 + 1e-9;
  let [pWorse, pBetter, minP] = [0, 0, 0];
  for (let u = 0, i = 0; u <= m; u++)
    for (let v = 0; v <= b; v++)
      for (let w = 0; w <= h; w++, i++) {
        const q = dist.p[i];
        if (!q) continue;
        const s = stat(u, v, w);
        if (s <= worse * eps) pWorse += q;
        if (s <= better * eps) pBetter += q;
        if (s <= best * eps) minP += q;
      }
  const clamp = (x) => Math.min(1, x);
  return { pWorse: clamp(pWorse), pBetter: clamp(pBetter), minP: clamp(minP) };
}
