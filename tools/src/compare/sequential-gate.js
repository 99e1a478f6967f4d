// How the gate judges a cell that ran sequentially (a duet with `maxRepetitions`: the
// runner looked at its pairs before each optional pair and stopped when the cell was
// decided — compare/sequential.js). Its pairs are no fixed sample: how many there are
// depends on what they showed. So its p-values are adjusted for the design before Holm.
//
// Haybittle–Peto, as a weighted Bonferroni over the looks: the K = maxPairs − minPairs
// interim looks (at minPairs … maxPairs−1 pairs) each get LOOK_P of α, the final look at
// maxPairs gets the rest, α − K·LOOK_P. A cell that stopped at an interim look is tested
// on its pairs with that look's share, one that ran to maxPairs with the final share:
//   p' = min(1, p · α / share).
// Every look's p-value is valid on its own, so P(p' ≤ u) ≤ Σ_looks P(p_k ≤ u·share_k/α) = u
// for every u, whatever made the cell stop: p' is a valid p-value, and Holm over the PR
// still holds. At the final look this is the level α − K·LOOK_P; an interim stop needs
// overwhelming evidence (p ≤ LOOK_P/m in a family of m), which is what the runner's rule
// (sequential.js) asks before it stops for a regression. Futility stops (the cell looks
// clearly fine) are non-binding: a stopped cell is tested at the small interim share, so
// stopping can only lower the false-alarm rate.
import { SEQUENTIAL_LOOK_P as LOOK_P } from '../config/matrix-limits.js';
import { holdToRecord } from './pairs-of-record.js';
import { tQuantileOrNormal } from './stats.js';

export { LOOK_P };

/**
 * The design a cell's runs record (meta.sequential: { minPairs, maxPairs }) and where it
 * stopped -> { minPairs, maxPairs, pairs, looks, stopped, share } or null for a fixed cell.
 */
export function sequentialDesign(base, head, pairs, alpha, meta = metaOf(base, head)) {
  if (!meta) return null;
  const { minPairs, maxPairs } = meta;
  if (!Number.isInteger(minPairs) || !Number.isInteger(maxPairs) || maxPairs <= minPairs || minPairs < 1) return null;
  const n = pairs?.length ?? Math.min(base.length, head.length);
  const looks = maxPairs - minPairs;
  const spent = looks * LOOK_P;
  // Runs up to the budget's last pair ran to budget, whatever pairs were lost whole on
  // the way; fewer stopped at an interim look — or lost a pair undecided (sequential-stop.js).
  // Whole pairs only (pairs.js refuses one side of a pair): one side's run is no pair run.
  const last = Math.max(0, ...(pairs ? pairs.map((p) => p.pair) : head.map((r) => r.meta?.repetition ?? 0)));
  const stopped = n < maxPairs && last < maxPairs;
  // validate.js keeps spent ≤ α/2; the floor only guards a hand-made meta.
  const share = stopped ? LOOK_P : Math.max(alpha - spent, LOOK_P);
  return { minPairs, maxPairs, pairs: n, looks, stopped, share, level: round6(alpha - spent) };
}

const metaOf = (base, head) => [...head, ...base].map((r) => r.meta?.sequential).find(Boolean);

/** The cell's p-value adjusted for its design (see above). */
export function sequentialP(p, design, alpha) {
  if (!Number.isFinite(p)) return p;
  return Math.min(1, (p * alpha) / design.share);
}

/**
 * What the gate can see in a sequential cell (power.js's rule shape): the fixed test at
 * maxPairs at the final look's level — the same per-pair noise, more pairs, the moderated
 * df grown by the pairs still to come. Interim stops are left out on both sides: efficacy
 * stops only add power; futility stops cost a little — the ×1.10 steady cell at σ 0.07
 * (tools/test/unit/sequential-sim.test.js) was caught 0.3 points less often with them
 * than without. Simulated at the figure this gives, the cell was caught 76%, not 80%.
 */
export function sequentialRule({ se, df, design, alpha, m, minLog }) {
  // Pairs, not the test's n (a failover test counts kills): each pair adds as much.
  const n = Math.max(1, design.pairs);
  const seMax = se * Math.sqrt(n / design.maxPairs);
  const dfMax = Number.isFinite(df) ? df + Math.max(0, design.maxPairs - n) : df;
  const level = Math.max(alpha - design.looks * LOOK_P, LOOK_P) / Math.max(1, m);
  const crit = tQuantileOrNormal(1 - level, dfMax);
  // The t statistic's own spread with an estimated variance (the non-central t's normal
  // approximation): without it the figure promised 80% where the simulation caught 74%.
  const k = Number.isFinite(dfMax) ? Math.sqrt(1 + crit ** 2 / (2 * dfMax)) : 1;
  return { se: seMax * k, first: Math.max(crit, minLog / seMax) / k, band: [] };
}

const round6 = (x) => Math.round(x * 1e6) / 1e6;

/**
 * gate.js: a valid prepared cell gets its design (p.sequential), shown in its verdict.
 * record: the base's design of record for its pairs (pairs-of-record.js) — it replaces the
 * runs' own meta.sequential; a cell short of the base's pairs is not judged.
 */
export function attachSequential(p, alpha, record = null) {
  if (!p.valid) return;
  const held = record ? holdToRecord(p, record) : null;
  if (held?.why) {
    p.valid = false;
    p.out.verdict = 'inconclusive';
    p.out.reasons.push(held.why);
    return;
  }
  const design = held
    ? sequentialDesign(p.base, p.head, p.pairs, alpha, held.meta)
    : sequentialDesign(p.base, p.head, p.pairs, alpha);
  if (!design) return;
  p.sequential = design;
  const { share, ...shown } = design;
  p.out.sequential = shown;
}

/** A test of a sequential cell -> its overall p-value (no confirmation round), or null. */
export function sequentialLook(t, alpha) {
  const design = t.owner.sequential;
  return design ? { overallP: sequentialP(t.pWorse, design, alpha), look: 'sequential' } : null;
}

/** A latency test of a sequential cell -> its power rule (sequentialRule), or null. */
export function sequentialRuleOf(t, { alpha, m, minLog }) {
  const design = t.owner.sequential;
  return design ? sequentialRule({ se: t.se, df: t.df ?? Infinity, design, alpha, m, minLog }) : null;
}
