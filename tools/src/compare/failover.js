// A duet's failover, tested kill by kill. Base and head stand in front of the same pods
// under one k6, so each kill hits both at the same moment: kill k of pair i is a paired
// sample (ingest/fault-cost.js perAction, the same events on both sides). A pod-kill
// cell's p99 is a few stalls per kill and varies ×1.5–×15 between pairs; the stall of one
// kill on both sides varies by a few percent. haproxy-ingress stalls exactly its
// `timeout connect` (5 s) when a connect reaches the dead pod's address, and which side's
// connects reach it is luck — so a kill stalls one side, both, or neither.
//
// The statistic: per kill that stalled *both* sides (a stall: its longest wait ≥ the
// rule's floor), log(head stall / base stall); Wilcoxon's signed-rank test, one-sided,
// with the Hodges–Lehmann estimate as the change and the interval the test inverts to.
// Kills that stalled one side only are counted and shown, not tested here: which side
// stalled is luck, and their log ratio (5 s over "no stall") is ±4 — ranked highest, its
// random sign drowns the ratio of the kills both sides met (simulated, 3 pairs × 8 kills
// at q = 0.6: a ×1.3 stall significant alone in about half of PRs with them, nearly all
// without: tools/test/unit/failover-sim.test.js).
// Where a kill stalls the head more *often*, errors and p99 still speak.
//
// With fewer than MIN_KILLS kills that stalled both sides the test cannot decide: it is
// not blocking (its own family, it only warns) and says why, instead of passing silently.
import { ruleNumbers } from '../config/normalise.js';
import { median, round } from '../numbers.js';
import { hodgesLehmann, signedRank, variance } from './stats.js';

export const FAILOVER_METRIC = 'failover stall';
export const MIN_KILLS = 6;
const KILL = 'pod-killed';
// floor "auto": what counts as a stall when the rule names no floor.
const AUTO_FLOOR_MS = 100;
// "Sees" models the signed-rank test as a z-test on the mean log ratio at Wilcoxon's
// efficiency relative to it (3/π under normal noise), with the kills' own spread — no
// less than MIN_SPREAD, so six identical ratios do not promise to see ×1.0001.
const EFFICIENCY = 3 / Math.PI;
const MIN_SPREAD = 0.02;

const killsOf = (r) => (r.faultCost?.perAction ?? []).filter((a) => a.type === KILL);

/** A duet cell (both sides in one run) whose every run lists its kills, one by one. */
export function hasFailover(p) {
  return (
    Boolean(p.pairs?.length) &&
    p.pairs.every((x) => x.base.meta?.ab && x.head.meta?.ab && killsOf(x.base).length && killsOf(x.head).length)
  );
}

/**
 * The kills of a cell's pairs, matched by when they happened (both sides' results read
 * one events file). discordant: also test the kills that stalled one side, each side
 * floored at floorMs (the comparison the simulation reports; not the gate's).
 */
export function failoverEvidence(pairs, floorMs, { discordant = false } = {}) {
  const d = [];
  const base = [];
  const head = [];
  const kills = { total: 0, both: 0, baseOnly: 0, headOnly: 0, neither: 0 };
  for (const p of pairs) {
    const heads = new Map(killsOf(p.head).map((a) => [Math.round(a.at * 10), a]));
    for (const b of killsOf(p.base)) {
      const h = heads.get(Math.round(b.at * 10));
      if (!h) continue;
      kills.total++;
      const sb = b.stallMs >= floorMs;
      const sh = h.stallMs >= floorMs;
      kills[sb && sh ? 'both' : sb ? 'baseOnly' : sh ? 'headOnly' : 'neither']++;
      if (!(sb && sh) && !(discordant && (sb || sh))) continue;
      const [fb, fh] = [Math.max(b.stallMs, floorMs), Math.max(h.stallMs, floorMs)];
      d.push(Math.log(fh / fb));
      base.push(fb);
      head.push(fh);
    }
  }
  return { d, kills, base: median(base), head: median(head) };
}

/** The failover tests of the cells that have one (gate.js evaluate). */
export function failoverTests(live, gate) {
  const rule = gate.failover;
  if (!rule) return [];
  return live.filter(hasFailover).map((p) => failoverTest(p, rule, 1 - gate.confidence));
}

function failoverTest(owner, rule, alpha) {
  const { threshold, floorMs } = ruleNumbers(rule);
  const floor = floorMs ?? AUTO_FLOOR_MS;
  const ev = failoverEvidence(owner.pairs, floor);
  const n = ev.d.length;
  const sr = signedRank(ev.d);
  const hl = hodgesLehmann(ev.d, alpha);
  const ratio = hl.estimate === null ? null : round(Math.exp(hl.estimate), 4);
  const exp = (x) => (x === null ? null : round(Math.exp(x), 4));
  const spread = n > 1 ? Math.max(MIN_SPREAD, Math.sqrt(variance(ev.d))) : null;
  const usable = sr.n; // kills whose two stalls differ at all
  return {
    owner,
    kind: 'failover',
    metric: FAILOVER_METRIC,
    blocking: rule.blocking,
    threshold,
    floorMs: floor,
    reliable: usable >= MIN_KILLS,
    ...(usable < MIN_KILLS ? { why: undecided(ev.kills, usable) } : {}),
    base: ev.base,
    head: ev.head,
    deltaMs: ratio === null ? 0 : round(ev.base * (ratio - 1), 1),
    design: 'concurrent',
    n,
    kills: ev.kills,
    ratio,
    ratioLow: exp(hl.low),
    ratioHigh: exp(hl.high),
    intervalLevel: round(1 - 2 * alpha, 4),
    se: spread === null ? null : spread / Math.sqrt(n * EFFICIENCY),
    df: null,
    pWorse: sr.pGreater,
    pBetter: sr.pLess,
    // The smallest p-value these kills could give (every sign one way): Tarone, as errors.
    minPWorse: 2 ** -usable,
    minPBetter: 2 ** -usable,
  };
}

function undecided(kills, usable) {
  if (!kills.total) return 'no kill was met by both sides';
  if (!kills.both)
    return `no kill stalled both sides (${kills.total} kills; base only ${kills.baseOnly}, head only ${kills.headOnly})`;
  return `only ${usable} of ${kills.total} kills stalled both sides (${MIN_KILLS} needed to decide; base only ${kills.baseOnly}, head only ${kills.headOnly}): not gated — more pairs would`;
}
