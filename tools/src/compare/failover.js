// A duet's failover, tested kill by kill. Base and head stand in front of the same pods
// under one load generator, so each kill hits both at the same moment: kill k of pair i is
// a paired sample (ingest/fault-cost.js perAction, the same events on both sides). A
// pod-kill cell's p99 is a few stalls per kill and varies ×1.5–×15 between pairs.
//
// A kill's cost on a side: the requests it held up (waited at least the cut from their
// actual send, or failed) and its exposure — from the kill to the send of the last of
// them, how long that side still sent requests to the dead endpoint. The exposure is what
// a slower failover lengthens, whatever the client's timeout: on Traefik a kill's stall is
// mostly the 10 s timeout of one hung request, and which side gets one is a coin flip per
// side — a kill hangs one side to 10.5–11.5 s and holds the other up for 0.2–1.5 s of fast
// 502s (kind, 2026-11-28: 18 of 64 kills that stalled both sides differed ×2–×55, in random
// directions), and those kills took the signed-rank test's highest ranks. The two sides'
// exposures of one kill differ too (each side's controller learns of the removal at its
// own moment: sd of the log ratio 0.37 on Traefik, 0.09 on haproxy-ingress) but without
// the timeout's ×10 (tools/perf/failover-kills.js prints each kill's figures from raw/).
//
// Every kill counts. A side is hit at a kill that held up at least one of its requests.
// The test has two parts, independent given which kills hit which side (each is a sign
// flip of its own kills under "no change"), combined by Fisher's method:
//   - the kills that hit one side only: exact McNemar (head only vs base only, ½ each) —
//     a head that hangs at kills where the base does not, whatever both sides' stalls;
//   - the kills that hit both: the sign test on log(head/base exposure) — how many were
//     longer on the head. Not Wilcoxon's signed ranks: the ratios are heavy-tailed (most
//     kills agree within ~15%, a few differ ×2–×55 either way, when one side meets a
//     timeout or learns of the removal a sync later), and ranks by size hand those few the
//     decision; a sign gives each kill one vote.
// Beside it, the requests each kill held up, kill by kill (heldUpVotes): a failover whose
// update lands at a random moment of a longer period is longer at only some kills but
// holds up more at nearly all. The smaller of the two p-values decides, at its exact level
// over the kills' sign flips (failover-flip.js); halving the level for each (withHeldUp,
// Bonferroni) is kept only where that distribution would be too large to build.
// The change is every kill's too: the shift of the log exposure ratio that a sign-flip test
// of all kills finds balanced — the kills that hit both by their signed ranks, each that hit
// one side as a vote at the mean rank (stats.js signOnlyRank: the Hodges–Lehmann estimate
// moved by the one-sided kills) — with the interval that test inverts to. Where the
// one-sided kills outweigh any shift there is no finite ratio (`unbounded`): the head was
// hit at more kills, by however much.
// Chosen by simulation on the recorded kills (tools/test/unit/failover-sim.test.js, its
// figures; docs/gate.md) over four A/A runs (Traefik 1st, 2nd, haproxy-ingress 1st, 2nd):
// at one level on PRs of 6 pairs it caught a 30% longer exposure in 88, 98, 90, 63%, and
// a head that hangs at 40% more of the kills in 91, 92, 21, 19%; with the signed-rank test
// for the kills that hit both 89, 99, 82, 46% and 92, 93, 25, 26%; one sign test over
// every kill (a one-sided kill a vote) 84, 96, 76, 54% and 61, 56, 23, 21%; the
// signed-rank test on the stalls of the kills that stalled both sides (the test until
// issue 66) 72, 47, 78, 64% and 1, 0, 3, 0%.
//
// The rule's floor is the cut: a request held up at least that long counts. The ingest
// keeps its own (100 ms, perActionCutMs); a floor above it counts a side as hit where its
// stall reached the floor or it failed a request, a floor below it cannot apply (the cut
// is the floor then), and the test says which it used.
//
// When neither part can decide alone (fewer than 5 kills that hit one side, and fewer than
// 5 that hit both: 2⁻⁵ is the first power of ½ under α = 5%) the test cannot decide, and
// says why. So too when a run kept only part of its requests of the cut or more
// (perActionTruncated), or lists no exposure per kill (ingested before it was measured):
// its costs may be short of the true ones. On a blocking rule such a cell is inconclusive
// (gate.js failoverClosed), not a pass — unless no kill hit the head at all (`calm`).
//
// Every kill accounted for: one events file feeds both sides, so each pair's two kill
// lists are one schedule — the same count, in the same order, at the same times within
// the clock's tolerance (killSchedule). A list missing or contradicting its pair's is a
// damaged or mis-ingested result: the test is not run on what is left (matching what it
// can would drop the very kills that differ) and the cell is inconclusive, naming them.
import { SEQUENTIAL_FUTILITY_LEVEL as FUTILITY_LEVEL } from '../config/matrix-limits.js';
import { ruleNumbers } from '../config/normalise.js';
import { killProblems, listed } from './whole-evidence.js';
import { median, pValue, round } from '../numbers.js';
import { fisherCombined, mcNemar, signOnlyRank } from './stats.js';
import { exactFailoverP, killVotes } from './failover-flip.js';

export const FAILOVER_METRIC = 'failover exposure';
const KILL = 'pod-killed';
// floor "auto": what counts as held up when the rule names no floor.
const AUTO_FLOOR_MS = 100;
// The cut of a result's stalls when it does not say (perActionCutMs): results before the
// ingest kept a lower cut measured them on its 1 s slow list.
const OLDER_CUT_MS = 1000;
// An exposure's resolution in a ratio: one side sends a request every 4 ms at 250/s, so a
// kill that held up only requests in flight at it (exposure 0) is "under 10 ms", not ×∞.
const EXPOSURE_RESOLUTION_MS = 10;
// "Sees" models the two-part test by its part on the kills that hit both as a z-test on
// the mean log exposure ratio at the sign test's efficiency relative to it (2/π under
// normal noise; more under the heavy tails measured), with
// the kills' own spread — no less than MIN_SPREAD, so six identical ratios do not promise
// to see ×1.0001. The spread is robust (1.4826 × the median absolute deviation): a rank
// sign is not moved by the odd kill where one side's exposure was ×3 the other's.
const robustSd = (d) => {
  const m = median(d);
  return 1.4826 * median(d.map((x) => Math.abs(x - m)));
};
const EFFICIENCY = 2 / Math.PI;
const MIN_SPREAD = 0.02;

// Kill times are the events file's, in seconds from the run's first action and rounded to
// the millisecond on each side: both sides read the same events, so anything beyond the
// matching's own resolution (a tenth of a second) is another schedule.
export const KILL_CLOCK_TOLERANCE_S = 0.1;

const killsOf = (r) => (r.faultCost?.perAction ?? []).filter((a) => a.type === KILL);
// null: the run lists no actions at all (no faultCost.perAction).
const listOf = (r) => (Array.isArray(r.faultCost?.perAction) ? killsOf(r) : null);
const cutOf = (r) => r.faultCost?.perActionCutMs ?? OLDER_CUT_MS;
const measured = (a) => Number.isFinite(a.exposureMs) && Number.isInteger(a.heldUp);

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
 * one events file), each side's cost at the cut cutMs (see above) -> { kills: counts,
 * base, head: [{hit, exposureMs, heldUp, stallMs}] per matched kill, d: log(head/base
 * exposure) of the kills that hit both, measured: every kill lists its exposure }.
 */
export function failoverEvidence(pairs, cutMs, ingestCutMs = cutMs) {
  const base = [];
  const head = [];
  const d = [];
  const kills = { total: 0, both: 0, baseOnly: 0, headOnly: 0, neither: 0 };
  let all = true;
  const cost = (a) => {
    all &&= measured(a);
    const hit =
      cutMs > ingestCutMs ? a.stallMs >= cutMs || a.errors > 0 : measured(a) ? a.heldUp > 0 : a.stallMs >= cutMs;
    return {
      hit,
      exposureMs: hit ? (a.exposureMs ?? 0) : 0,
      heldUp: hit ? (a.heldUp ?? 0) : 0,
      stallMs: hit ? a.stallMs : 0,
    };
  };
  for (const p of pairs) {
    const heads = new Map(killsOf(p.head).map((a) => [Math.round(a.at * 10), a]));
    for (const x of killsOf(p.base)) {
      const y = heads.get(Math.round(x.at * 10));
      if (!y) continue;
      const [b, h] = [cost(x), cost(y)];
      kills.total++;
      kills[b.hit && h.hit ? 'both' : b.hit ? 'baseOnly' : h.hit ? 'headOnly' : 'neither']++;
      base.push(b);
      head.push(h);
      if (b.hit && h.hit) d.push(Math.log(floored(h.exposureMs) / floored(b.exposureMs)));
    }
  }
  return { kills, base, head, d, measured: all };
}

const floored = (ms) => Math.max(ms, EXPOSURE_RESOLUTION_MS);

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

const NO_KILLS = { total: 0, both: 0, baseOnly: 0, headOnly: 0, neither: 0 };

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
    minDeltaMs: 0,
    reliable: false,
    why: `the two sides' kill lists are not one schedule (${shown}): one events file feeds both sides, so a result is damaged or mis-ingested — re-ingest or re-run the cell`,
    base: null,
    head: null,
    deltaMs: 0,
    design: 'concurrent',
    n: 0,
    kills: NO_KILLS,
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

const UNMEASURED =
  "a run lists no exposure per kill (faultCost.perAction's exposureMs and heldUp: ingested before they were measured, or without every failed request's time) — re-ingest the runs: not gated";

function failoverTest(owner, rule, alpha) {
  const { threshold, floorMs } = ruleNumbers(rule);
  // The cut: the rule's floor, or the ingest's where that is higher.
  const ingestCut = Math.max(...owner.pairs.flatMap((p) => [cutOf(p.base), cutOf(p.head)]));
  const floor = Math.max(floorMs ?? AUTO_FLOOR_MS, ingestCut);
  const ev = failoverEvidence(owner.pairs, floor, ingestCut);
  const { kills, d } = ev;
  const t = signOnlyRank(d, kills.headOnly, kills.baseOnly, alpha);
  // The futility bound: the change's one-sided upper bound at the runner's level.
  const futility = signOnlyRank(d, kills.headOnly, kills.baseOnly, 1 - FUTILITY_LEVEL);
  const test = withHeldUp(twoParts(kills, signTest(d), alpha), heldUpVotes(ev), alpha);
  // The parts' smaller p-value at its exact level over the kills' sign flips, not halved
  // (failover-flip.js); the Bonferroni bound where the grid would be too large.
  const kept = test.parts.map((x) => x.name);
  const exact = kept.length ? exactFailoverP(killVotes(ev, floored), kept) : null;
  const p = exact ?? test;
  const spread = d.length > 1 ? Math.max(MIN_SPREAD, robustSd(d)) : null;
  const why =
    truncated(owner.pairs) ?? (ev.measured ? null : UNMEASURED) ?? (test.parts.length ? null : undecided(kills, test));
  const exp = (x) => (x === null ? null : round(Math.exp(x), 4));
  const mean = (side, f) => round(side.reduce((a, x) => a + f(x), 0) / Math.max(1, side.length), 1);
  const hit = (side) => median(side.filter((x) => x.hit).map((x) => x.stallMs));
  const [mb, mh] = [mean(ev.base, (x) => x.exposureMs), mean(ev.head, (x) => x.exposureMs)];
  return {
    owner,
    kind: 'failover',
    metric: FAILOVER_METRIC,
    blocking: rule.blocking,
    threshold,
    floorMs: floor,
    // A longer exposure is worth a red PR by the threshold alone: the floor is the cut.
    minDeltaMs: 0,
    reliable: why === null,
    ...(why === null ? {} : { why }),
    // No kill hit the head: it held nothing up, so nothing it held up can be longer.
    ...(why !== null && !truncated(owner.pairs) && !kills.both && !kills.headOnly ? { calm: true } : {}),
    // Per kill, every kill counted (a kill that held up nothing is a zero): the mean
    // exposure, the mean of the requests held up, the median stall of the kills that hit.
    base: mb,
    head: mh,
    // The change in ms at the estimated ratio (noisy means would veto a clear shift).
    deltaMs: round(t.estimate === null ? mh - mb : mb * Math.expm1(t.estimate), 1),
    heldUp: { base: mean(ev.base, (x) => x.heldUp), head: mean(ev.head, (x) => x.heldUp) },
    stall: { base: hit(ev.base), head: hit(ev.head) },
    design: 'concurrent',
    n: kills.total,
    kills,
    ratio: exp(t.estimate),
    ratioLow: exp(t.low),
    ratioHigh: exp(t.high),
    // The kills that hit one side only outweigh any change of the exposure the others
    // show: the head (above) or the base (below) was hit at more kills, by however much.
    ...(t.unbounded ? { unbounded: t.unbounded } : {}),
    intervalLevel: round(1 - 2 * alpha, 4),
    // What the runner's futility stop reads (failoverWithin): the upper bound at its level.
    futilityHigh: futility.unbounded === 'above' ? null : exp(futility.high),
    se: spread === null ? null : spread / Math.sqrt(d.length * EFFICIENCY),
    df: null,
    // The parts tested and their own p-values.
    parts: Object.fromEntries(test.parts.map((x) => [x.name, pValue(x.pWorse)])),
    // How the parts became one p-value: exact over the kills' sign flips, or Bonferroni.
    combined: exact ? 'sign-flip' : 'bonferroni',
    pWorse: p.pWorse,
    pBetter: p.pBetter,
    // The smallest p-value these kills could give (every sign one way): Tarone, as errors.
    minPWorse: p.minP,
    minPBetter: p.minP,
  };
}

/**
 * The sign test of the log ratios d (ties vote for neither side) -> { n, pGreater, pLess },
 * as stats.js signedRank gives them: exact binomial tails, as McNemar's.
 */
export function signTest(d) {
  const up = d.filter((x) => x > 0).length;
  const down = d.filter((x) => x < 0).length;
  return { n: up + down, pGreater: mcNemar(up, down), pLess: mcNemar(down, up) };
}

/**
 * The sign test of every kill's requests held up (ev: failoverEvidence's) -> { n, pWorse,
 * pBetter }: a kill that held up more of the head's requests than of the base's is a vote
 * for "worse" (a tie for neither). At a constant arrival rate a failover that keeps
 * routing to the dead endpoint for longer holds up more requests, kill by kill, even where
 * when the last of them was sent — the exposure — moves only now and then: a controller
 * that applies endpoint changes every 3 s instead of 2 s (kind, 2026-11-28) held up more
 * of the head's requests at 20 of 22 kills, its exposures were longer at 11 of 16.
 */
export function heldUpVotes(ev) {
  let up = 0;
  let down = 0;
  ev.base.forEach((b, i) => {
    if (ev.head[i].heldUp > b.heldUp) up++;
    else if (ev.head[i].heldUp < b.heldUp) down++;
  });
  return { n: up + down, pWorse: mcNemar(up, down), pBetter: mcNemar(down, up) };
}

/**
 * The exposure's test and the held-up test as one (Bonferroni within the failover test:
 * either may decide at half the level, so the gate's family keeps one test) ->
 * twoParts' shape, the held-up test one more part.
 */
export function withHeldUp(test, held, alpha) {
  if (2 ** -held.n > alpha / 2) return test;
  const both = (a, b) => Math.min(1, 2 * Math.min(a, b));
  return {
    ...test,
    parts: [...test.parts, { name: 'heldUp', pWorse: held.pWorse, pBetter: held.pBetter, k: held.n }],
    pWorse: both(test.pWorse, held.pWorse),
    pBetter: both(test.pBetter, held.pBetter),
    minP: both(test.parts.length ? test.minP : 1, 2 ** -held.n),
  };
}

/**
 * The test's parts that can decide (kills: failoverEvidence's counts; sr: signTest of its
 * d) -> { parts: [{name, pWorse, pBetter, k}], pWorse, pBetter, minP }. A part whose every
 * sign one way (2⁻ᵏ for its k kills) could not reach α alone would only dilute the other,
 * and which kills hit one side or both is what no sign flip changes — so leaving it out
 * keeps the test exact. Both: Fisher.
 */
export function twoParts(kills, sr, alpha) {
  const m = kills.headOnly + kills.baseOnly;
  const parts = [
    ...(2 ** -m <= alpha
      ? [
          {
            name: 'oneSided',
            pWorse: mcNemar(kills.headOnly, kills.baseOnly),
            pBetter: mcNemar(kills.baseOnly, kills.headOnly),
            k: m,
          },
        ]
      : []),
    ...(2 ** -sr.n <= alpha ? [{ name: 'bothSided', pWorse: sr.pGreater, pBetter: sr.pLess, k: sr.n }] : []),
  ];
  const combine = (f) =>
    parts.length === 2 ? fisherCombined(f(parts[0]), f(parts[1])) : parts.length ? f(parts[0]) : 1;
  return {
    alpha,
    parts,
    pWorse: combine((x) => x.pWorse),
    pBetter: combine((x) => x.pBetter),
    minP: combine((x) => 2 ** -x.k),
  };
}

function undecided(kills, test) {
  if (!kills.total) return 'no kill was met by both sides';
  const need = Math.ceil(-Math.log2(test.alpha));
  return `too few kills tell the sides apart: ${kills.both} hit both, ${kills.baseOnly + kills.headOnly} one side (base only ${kills.baseOnly}, head only ${kills.headOnly}) of ${kills.total} — ${need} of either needed to decide: not gated, more pairs would`;
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
  return `${short.join(', ')} kept only part of ${short.length > 1 ? 'their' : 'its'} requests of the cut or more (faultCost.perActionTruncated; ingest/aggregate.js lagKept): costs per kill not known in full — not gated`;
}

/**
 * A failover test clearly within its threshold — what lets a sequential cell stop as
 * passing (sequential.js) and what a stopped cell's failover must be not to read "not
 * decided": no kill hit the head (calm), or the change's one-sided upper bound at the
 * runner's futility level (futilityHigh) under 1 + threshold. A test that could not be
 * run (brokenSchedule) has no bound: never within.
 */
export function failoverWithin(t) {
  return Boolean(t.calm) || (Number.isFinite(t.futilityHigh) && t.futilityHigh < 1 + t.threshold);
}

/**
 * gate.js, after the decision: a failover test that has not decided says so — status
 * "undecided" (shown "not decided", with its estimate), never "pass". Undecided: it cannot
 * decide (too few kills, costs not known in full, not one schedule), or its cell stopped
 * early (sequential) because another test decided while this one was neither significant
 * nor clearly within its threshold (failoverWithin).
 */
export function failoverUndecided(tests) {
  for (const t of tests) {
    if (t.kind !== 'failover' || t.status !== 'pass' || t.calm) continue;
    if (!t.reliable || (t.owner.sequential?.stopped && !failoverWithin(t))) t.status = 'undecided';
  }
}

/**
 * gate.js: a blocking failover test that cannot decide — too few kills, a run's costs not
 * known in full, kill lists that are not one schedule — leaves its cell inconclusive,
 * naming why (its warning becomes the reason). Not a pass: that is what more pairs, or a
 * whole result, would decide. A regression found elsewhere stands.
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
