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
// With fewer than MIN_KILLS kills that stalled both sides the test cannot decide, and
// says why. So too when a run kept only part of its requests of the cut or more
// (perActionTruncated): its stalls may be short of the true ones, on one side more than
// the other. On a blocking rule such a cell is inconclusive (gate.js failoverClosed), not
// a pass — unless no kill stalled the head at all: then no head stall reached the floor,
// and none can be a longer one (`calm`).
//
// Every kill accounted for: one events file feeds both sides, so each pair's two kill
// lists are one schedule — the same count, in the same order, at the same times within
// the clock's tolerance (killSchedule). A list missing or contradicting its pair's is a
// damaged or mis-ingested result: the test is not run on what is left (matching what it
// can would drop the very kills that differ) and the cell is inconclusive, naming them.
import { ruleNumbers } from '../config/normalise.js';
import { killProblems, listed } from './whole-evidence.js';
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

// Kill times are the events file's, in seconds from the run's first action and rounded to
// the millisecond on each side: both sides read the same events, so anything beyond the
// matching's own resolution (a tenth of a second) is another schedule.
export const KILL_CLOCK_TOLERANCE_S = 0.1;

const killsOf = (r) => (r.faultCost?.perAction ?? []).filter((a) => a.type === KILL);
// null: the run lists no actions at all (no faultCost.perAction).
const listOf = (r) => (Array.isArray(r.faultCost?.perAction) ? killsOf(r) : null);
const cutOf = (r) => r.faultCost?.perActionCutMs ?? OLDER_CUT_MS;

/**
 * A duet cell (both sides in one run) any of whose runs lists a kill: it owes a failover
 * test, whole or inconclusive. Interleaved pairs and results written before the per-kill
 * ingest (no run lists one) have none.
 */
export function hasFailover(p) {
  return (
    Boolean(p.pairs?.length) &&
    p.pairs.every((x) => x.base.meta?.ab && x.head.meta?.ab) &&
    p.pairs.some((x) => killsOf(x.base).length || killsOf(x.head).length)
  );
}

/**
 * Each pair's two kill lists against each other -> { problems: [why], kills }: a list
 * missing, another count, or a kill at another time (beyond KILL_CLOCK_TOLERANCE_S), named
 * by pair and kill; kills: whether any run lists one.
 */
export function killSchedule(pairs) {
  const problems = [];
  let kills = false;
  pairs.forEach((p, i) => {
    const n = p.pair ?? i + 1;
    const [b, h] = [listOf(p.base), listOf(p.head)];
    kills ||= Boolean(b?.length || h?.length);
    if (!b || !h) {
      const [gone, other] = b ? ['head', b] : ['base', h];
      if (b || h)
        problems.push(
          `pair ${n}: the ${gone} lists no kills (faultCost.perAction), the ${b ? 'base' : 'head'} ${other.length}`,
        );
      else problems.push(`pair ${n}: neither side lists its kills (faultCost.perAction)`);
      return;
    }
    if (b.length !== h.length) {
      problems.push(`pair ${n}: the base lists ${b.length} kills, the head ${h.length}`);
      return;
    }
    const k = b.findIndex((a, j) => !(Math.abs(a.at - h[j].at) <= KILL_CLOCK_TOLERANCE_S));
    if (k >= 0) problems.push(`pair ${n}, kill ${k + 1}: at ${b[k].at} s on the base, ${h[k].at} s on the head`);
  });
  return { problems, kills };
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
  return live.filter(hasFailover).map((p) => {
    const { problems } = killSchedule(p.pairs);
    if (problems.length) return brokenSchedule(p, rule, problems);
    // Every kill's figures whole, or no test on the kills that are left (whole-evidence.js).
    const figures = killProblems(p.pairs, killsOf);
    if (figures.length)
      return {
        ...brokenSchedule(p, rule, figures),
        why: `a kill's figures are not whole (${listed(figures)}): not tested on the kills that are left — re-ingest or re-run the cell`,
      };
    return failoverTest(p, rule, 1 - gate.confidence);
  });
}

// Kill lists that are not one schedule: no test on what is left, and why.
function brokenSchedule(owner, rule, problems) {
  const { threshold, floorMs } = ruleNumbers(rule);
  const shown = problems.slice(0, 4).join('; ') + (problems.length > 4 ? `; and ${problems.length - 4} more` : '');
  return {
    owner,
    kind: 'failover',
    metric: FAILOVER_METRIC,
    blocking: rule.blocking,
    threshold,
    floorMs: Math.max(floorMs ?? AUTO_FLOOR_MS, AUTO_FLOOR_MS),
    reliable: false,
    why: `the two sides' kill lists are not one schedule (${shown}): one events file feeds both sides, so a result is damaged or mis-ingested — re-ingest or re-run the cell`,
    base: null,
    head: null,
    deltaMs: 0,
    design: 'concurrent',
    n: 0,
    kills: { total: 0, both: 0, baseOnly: 0, headOnly: 0, neither: 0 },
    ratio: null,
    ratioLow: null,
    ratioHigh: null,
    se: null,
    df: null,
    pWorse: 1,
    pBetter: 1,
    minPWorse: 1,
    minPBetter: 1,
  };
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
    // No kill stalled the head: every head stall is under the floor, none can be longer.
    ...(why !== null && !truncated(owner.pairs) && !ev.kills.both && !ev.kills.headOnly ? { calm: true } : {}),
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

/**
 * gate.js: a blocking failover test that cannot decide — too few kills stalled both sides,
 * a run's stalls not known in full, kill lists that are not one schedule — leaves its cell
 * inconclusive, naming why (its warning becomes the reason). Not a pass: that is what
 * more pairs, or a whole result, would decide. A regression found elsewhere stands.
 */
export function failoverClosed(p, tests) {
  if (!p.valid || p.out.verdict === 'regression') return;
  const open = tests.filter((t) => t.kind === 'failover' && t.blocking && !t.reliable && !t.calm);
  if (!open.length) return;
  p.out.verdict = 'inconclusive';
  for (const t of open) {
    const said = `${t.metric}: ${t.why}`;
    p.out.warnings = p.out.warnings.filter((w) => w !== said);
    p.out.reasons.push(`${t.metric} cannot decide: ${t.why} (a blocking test that cannot decide is no pass)`);
  }
}
