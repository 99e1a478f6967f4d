// A duet's failover, tested kill by kill. Base and head stand in front of the same pods
// under one k6, so each kill hits both at the same moment: kill k of pair i is a paired
// sample (ingest/fault-cost.js perAction, the same events on both sides). A pod-kill
// cell's p99 is a few stalls per kill and varies ×1.5–×15 between pairs; the stall of one
// kill on both sides varies by a few percent.
//
// A kill's stall on a side: from the kill to the end of the last request of at least the
// rule's floor that it held up. The ingest measures it at its own cut (100 ms,
// perActionCutMs); a floor above the cut applies to the stall (shorter: no stall), a floor
// below it cannot — the cut is the floor then, and the test says which it used. On
// haproxy-ingress every kill holds up 100–500 ms requests on both sides for 0.3–3 s, and
// the two sides' stalls track each other (kind, 2026-11-27); at a 1 s cut only the rare
// 5 s `timeout connect` stall counted, one side's in about 1 kill of 10, and the test
// could not decide.
//
// The statistic: per kill that stalled *both* sides, log(head stall / base stall);
// Wilcoxon's signed-rank test, one-sided, with the Hodges–Lehmann estimate as the change
// and the interval the test inverts to. Kills that stalled one side only are counted and
// shown, not tested here: when which side stalls is luck, their log ratio (a stall over
// "no stall") is large and ranked highest, and its random sign drowns the ratio of the
// kills both sides met (tools/test/unit/failover-sim.test.js, q = 0.6).
// Where a kill stalls the head more *often*, errors and p99 still speak.
//
// With fewer than MIN_KILLS kills that stalled both sides the test cannot decide: it is
// not blocking (its own family, it only warns) and says why, instead of passing silently.
// So too when a run kept only part of its requests of the cut or more
// (perActionTruncated): its stalls may be short of the true ones, on one side more than
// the other.
import { ruleNumbers } from '../config/normalise.js';
import { median, round } from '../numbers.js';
import { hodgesLehmann, signedRank } from './stats.js';

export const FAILOVER_METRIC = 'failover stall';
export const MIN_KILLS = 6;
const KILL = 'pod-killed';
// floor "auto": what counts as a stall when the rule names no floor.
const AUTO_FLOOR_MS = 100;
// The cut of a result's stalls when it does not say (perActionCutMs): results before the
// ingest kept a lower cut measured them on its 1 s slow list.
const OLDER_CUT_MS = 1000;
// "Sees" models the signed-rank test as a z-test on the mean log ratio at Wilcoxon's
// efficiency relative to it (3/π under normal noise), with the kills' own spread — no
// less than MIN_SPREAD, so six identical ratios do not promise to see ×1.0001. The spread
// is robust (1.4826 × the median absolute deviation): a rank test is not moved by the
// kill in six where one side stalled ×2–×8 the other, a variance is (on an A/A run on
// kind it made `sees` ×1.2–×1.38 while the change it estimated was ×1.00 ± 0.006).
const robustSd = (d) => {
  const m = median(d);
  return 1.4826 * median(d.map((x) => Math.abs(x - m)));
};
const EFFICIENCY = 3 / Math.PI;
const MIN_SPREAD = 0.02;

const killsOf = (r) => (r.faultCost?.perAction ?? []).filter((a) => a.type === KILL);
const cutOf = (r) => r.faultCost?.perActionCutMs ?? OLDER_CUT_MS;

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
  // The stall's cut: the rule's floor, or the ingest's where that is higher.
  const cut = Math.max(...owner.pairs.flatMap((p) => [cutOf(p.base), cutOf(p.head)]));
  const floor = Math.max(floorMs ?? AUTO_FLOOR_MS, cut);
  const ev = failoverEvidence(owner.pairs, floor);
  const n = ev.d.length;
  const sr = signedRank(ev.d);
  const hl = hodgesLehmann(ev.d, alpha);
  const ratio = hl.estimate === null ? null : round(Math.exp(hl.estimate), 4);
  const exp = (x) => (x === null ? null : round(Math.exp(x), 4));
  const spread = n > 1 ? Math.max(MIN_SPREAD, robustSd(ev.d)) : null;
  const usable = sr.n; // kills whose two stalls differ at all
  const why = truncated(owner.pairs) ?? (usable < MIN_KILLS ? undecided(ev.kills, usable) : null);
  return {
    owner,
    kind: 'failover',
    metric: FAILOVER_METRIC,
    blocking: rule.blocking,
    threshold,
    floorMs: floor,
    reliable: why === null,
    ...(why === null ? {} : { why }),
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

// A run that kept only part of its requests of the cut or more: which, so the comment
// can say why this cell was not gated.
function truncated(pairs) {
  const short = [];
  pairs.forEach((p, i) => {
    for (const side of ['base', 'head'])
      if (p[side].faultCost?.perActionTruncated) short.push(`pair ${i + 1}'s ${side}`);
  });
  if (!short.length) return null;
  return `${short.join(', ')} kept only part of ${short.length > 1 ? 'their' : 'its'} requests of the stall's cut or more (faultCost.perActionTruncated; ingest/aggregate.js lagKept): stalls per kill not known in full — not gated`;
}
