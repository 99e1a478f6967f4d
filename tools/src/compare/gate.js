// The verdict of one comparison (one PR): every cell, every quantile and error group
// decided together, so that the chance of a false alarm is controlled for the PR —
// what a user experiences — and not per test.
//
//   1. per cell: is the data valid (validity.js)? which runs pair up (pairs.js)?
//   2. per cell and metric: the raw evidence (latency.js, errors.js)
//   3. per metric: noise moderated across the cells (noise.js)
//   4. one-sided p-values; Holm over every blocking test of the comparison
//   5. a test fails the gate only if significant after Holm *and* larger than the
//      rule's relative threshold and absolute floor (a change worth a red PR)
import { ruleNumbers } from '../config/normalise.js';
import { normalQuantile } from '../normal.js';
import { errorTests } from './errors.js';
import { describe, finish, publicTest, summaryOf } from './cell-verdict.js';
import { floorMs, LATENCY, latencyEvidence, latencyNoise } from './latency.js';
import { hasPropagation, PROPAGATION } from './propagation.js';
import { failoverClosed, failoverTests, failoverUndecided } from './failover.js';
import { EARLY, isCandidate, stagewise } from './confirm.js';
import { CROSS_TALK_RATIO, duetCpu } from './cross-talk.js';
import { CPU, CPU_METRIC, cpuNoiseRules, hasCpu, withCpuUnit } from './cpu.js';
import { decisionRule, ratioCaught } from './power.js';
import { attachSequential, sequentialLook, sequentialRuleOf } from './sequential-gate.js';
import { undecidedClosed, undecidedStops } from './sequential-stop.js';
import { matchPairs } from './pairs.js';
import { holm, tQuantileOrNormal, tSf } from './stats.js';
import { checkRun, comparabilityProblems, headHeldRuns, sharedDropLimit, sharedDropRuns } from './validity.js';
import { round } from '../numbers.js';
import { evidenceClosed } from './whole-evidence.js';

/**
 * inputs: [{ cell, base: reps, head: reps, ...extra }] -> { cells: [cell verdicts], procedure, confirm }.
 * mode 'paired' matches runs into pairs; 'baseline' treats the sides as independent.
 * confirm: Map cell -> { base: reps, head: reps }: fresh runs of the cells a first call
 * listed in `confirm` (confirm-on-fail, confirm.js).
 * record: the base's design of record for the pairs (pairs-of-record.js), paired mode.
 */
export function gateCells(
  inputs,
  gate,
  { mode = 'baseline', allowMachineMismatch = false, confirm = null, record = null } = {},
) {
  const alpha = 1 - gate.confidence;
  const prepared = inputs.map((input) => prepare(input, gate, mode, allowMachineMismatch));
  // maxRepetitions: sequential-gate.js; the base's pair budget where it is known.
  for (const p of prepared) attachSequential(p, alpha, mode === 'paired' ? record : null);
  const undecided = undecidedStops(prepared, gate);
  const tests = evaluate(prepared, gate);
  // Fresh runs of the candidates, tested with the noise of every other cell. A cross-talk
  // duet's latency tests are candidates whatever their first-look size: its ratio may
  // understate the head's cost, and its fresh runs are interleaved pairs (confirm.js).
  const upTo = (t) => (crossTalkTest(t) ? 1 : alpha);
  const worthConfirming = (t) => big(t, +1) || crossTalkTest(t);
  const candidates = new Set(
    tests
      .filter((t) => !t.owner.sequential && isCandidate(t, alpha, upTo(t)) && worthConfirming(t))
      .map((t) => t.owner),
  );
  let fresh = [];
  // Why a candidate's confirmation round cannot decide (no fresh runs, or runs that are
  // not valid evidence): its pending tests stay undecided, and the cell fails closed.
  const unconfirmed = new Map();
  if (confirm && candidates.size) {
    const again = prepared.map((p) => {
      const runs = candidates.has(p) && confirm.get(p.out.cell);
      if (candidates.has(p) && !runs) unconfirmed.set(p, ['no fresh runs of this cell arrived']);
      if (!runs) return p;
      const q = prepare({ ...p.input, base: runs.base, head: runs.head }, gate, mode, allowMachineMismatch);
      q.first = p;
      if (!q.valid) unconfirmed.set(p, q.out.reasons);
      return q;
    });
    fresh = evaluate(again, gate).filter((t) => t.owner.first);
  }
  const secondOf = (t) => fresh.find((f) => f.owner.first === t.owner && f.metric === t.metric);
  decide(tests, alpha, (t) => (worthConfirming(t) ? secondOf(t) : undefined), upTo);
  failoverUndecided(tests);
  for (const p of prepared) {
    const own = tests.filter((t) => t.owner === p);
    finish(p, own, gate);
    failClosed(p, own);
    failoverClosed(p, own);
    evidenceClosed(p, own);
    unconfirmedClosed(p, own, unconfirmed.get(p));
    undecidedClosed(p, undecided.get(p));
  }
  const pending = tests.filter((t) => t.look === 'pending');
  const flags = mode === 'baseline' ? '--confirm-results' : '--confirm-base-results and --confirm-head-results';
  for (const t of pending) {
    t.owner.out.warnings.push(
      crossTalkTest(t)
        ? `${describe(publicTest(t))} in a duet whose head burns more CPU per request: needs confirmation as interleaved pairs — re-run this cell without the duet (${plural(t.owner.input.head.length, 'more pair')}; compare: paired) and pass them with ${flags}`
        : `possible ${describe(publicTest(t))}: needs confirmation — re-run this cell (${plural(t.owner.input.head.length, 'more run')} per side) and pass them with ${flags}`,
    );
  }
  const pendingCells = [...new Set(pending.map((t) => t.owner))];
  // A first look that asks for a round is not a verdict: the cell is undecided until the
  // round reports (a pass here is what a lost round would publish).
  for (const p of pendingCells) awaitRound(p, pending, flags);
  return {
    round: confirm ? 'confirmation' : 'first',
    cells: prepared.map((p) => p.out),
    procedure: procedureOf(tests, alpha, prepared),
    confirm: pendingCells.map((p) => ({
      cell: p.out.cell,
      metrics: pending.filter((t) => t.owner === p).map((t) => t.metric),
      runs: p.input.head.length,
      ...(p.out.crossTalk ? { interleaved: true } : {}),
    })),
  };
}

// Tests of every valid cell, noise moderated across cells.
function evaluate(prepared, gate) {
  const live = prepared.filter((p) => p.valid);
  const tests = [];
  for (const [q, rule] of Object.entries(gate.latency)) tests.push(...latencyTests(live, q, rule, gate));
  // Route propagation where the runs edited routes: a cell without route faults has
  // nothing to test, not a missing measurement (propagation.js).
  const routed = live.filter(hasPropagation);
  for (const [q, rule] of Object.entries(gate.propagation ?? {}))
    tests.push(...latencyTests(routed, q, rule, gate, PROPAGATION));
  tests.push(...failoverTests(live, gate));
  // CPU per 1,000 requests (gate.cpu, cpu.js): paired like p99, with its own assumed noise.
  const cpuOwed = (p) => hasCpu(p, gate.cpu);
  if (gate.cpu?.threshold)
    tests.push(...withCpuUnit(latencyTests(live.filter(cpuOwed), CPU_METRIC, gate.cpu, cpuNoiseRules(gate), CPU)));
  tests.push(...errorTests(live, gate));
  return tests;
}

function prepare(input, gate, mode, allowMachineMismatch) {
  const { cell, base, head, ...extra } = input;
  const out = {
    cell,
    verdict: 'pass',
    reasons: [],
    warnings: [],
    metrics: [],
    baseReps: base.length,
    headReps: head.length,
    ...extra,
  };
  out.head = summaryOf(head);
  out.base = summaryOf(base);
  const shared = sharedDropRuns(base, head);
  const held = headHeldRuns(base, head);
  const opts = (r) => ({ sharedDrops: shared.has(r), heldByHead: held.has(r) });
  const checks = [
    ...base.map((r) => checkRun(r, gate.validity, 'base', opts(r))),
    ...head.map((r) => checkRun(r, gate.validity, 'head', opts(r))),
  ];
  const invalid = checks.flatMap((c) => c.problems);
  const incomparable = comparabilityProblems(base, head, { allowMachineMismatch, mode }).map((p) => p.message);
  const omission = checks.map((c) => c.omission).filter(Boolean);
  if (invalid.length || incomparable.length) {
    out.verdict = 'inconclusive';
    out.reasons.push(...invalid, ...incomparable);
    return { input, out, valid: false };
  }
  const match = mode === 'paired' ? matchPairs(base, head) : { pairs: null, why: 'baseline mode: independent runs' };
  // Every pair whole (pairs.js): a pair missing a side, or a pair number used twice, is
  // no evidence to analyse another way — the cell is inconclusive, naming the pair.
  if (match.broken) {
    out.verdict = 'inconclusive';
    out.reasons.push(`not whole pairs: ${match.why} — re-run the cell (a side's results missing or mis-ingested)`);
    return { input, out, valid: false };
  }
  out.design = match.pairs
    ? { paired: true, pairs: match.pairs.length, matchedBy: match.by, order: match.pairs.map((p) => p.order) }
    : { paired: false, why: match.why };
  if (mode === 'paired' && !match.pairs)
    out.warnings.push(`not analysed as pairs (${match.why}): independent runs, less sensitive`);
  const sharedBase = base.map((r, i) => checks[i].shared).filter(Boolean);
  if (sharedBase.length) {
    const ratios = sharedBase.map((s) => s.ratio);
    out.sharedDrops = sharedBase.map((s) => ({ pair: s.pair, dropped: s.dropped, ratio: s.ratio }));
    out.warnings.push(
      `k6 dropped iterations in ${sharedBase.length} of ${base.length} pairs (${sharedBase.map((s) => s.dropped).join(', ')}; up to ${(100 * Math.max(...ratios)).toFixed(2)}%), on both sides alike: one load generator drives both sides of a duet, so each pair stays a fair comparison (over ${(100 * sharedDropLimit(gate.validity)).toFixed(0)}% it would not)`,
    );
  }
  const hog = crossTalk(base, head);
  if (hog) {
    out.crossTalk = hog;
    out.warnings.push(
      `the head's data plane burns ×${hog.cpuRatio} the CPU per request of the base's (${hog.headCpuPer1k} vs ${hog.baseCpuPer1k} s per 1,000 requests): in a duet both share the node, so the head's cost slows the base too and the pair's ratio may understate it — confirm with interleaved pairs (compare: paired)`,
    );
  }
  if (omission.length) {
    const n = omission.reduce((a, o) => a + o.dropped, 0);
    const busy = omission.some((o) => o.cause === 'system');
    out.warnings.push(
      omission.some((o) => o.heldByHead)
        ? `the head held every VU of the duet's one k6 (its rate × its mean response ≥ the VUs; the base's could not), so k6 dropped ${n} iterations on both sides — coordinated omission caused by the head, counted as its errors of class "dropped"`
        : `head made k6 drop ${n} iterations (the base did not): ${busy ? 'the system kept every VU busy' : 'k6 fell behind with VUs free, on a machine it shares with the head'} — coordinated omission, counted as errors of class "dropped"`,
    );
  }
  return { input, out, valid: true, base, head, pairs: match.pairs };
}

// A blocking test whose p-value is not a number decides nothing, and nothing decided is
// not a pass: its cell is inconclusive (a red check), naming the test.
export function failClosed(p, tests) {
  const broken = tests.filter(
    (t) => t.blocking && t.status !== 'missing' && t.look !== 'pending' && !Number.isFinite(t.adjPWorse),
  );
  if (!broken.length || !p.valid || p.out.verdict === 'regression') return;
  p.out.verdict = 'inconclusive';
  p.out.reasons.push(
    `the gate could not compute a p-value for ${broken.map((t) => t.metric).join(', ')}: not passed (a tailgate bug — please report it)`,
  );
}

// The confirmation round ran and cannot decide a possible regression (its fresh runs
// missing or invalid — k6 fell behind, a side failed): not passed. Without this the cell
// would keep its first look's "pass" with the regression still pending.
function unconfirmedClosed(p, tests, why) {
  const pending = tests.filter((t) => t.look === 'pending');
  if (!why || !pending.length || !p.valid || p.out.verdict === 'regression') return;
  p.out.verdict = 'inconclusive';
  p.out.reasons.push(
    `the confirmation round cannot decide ${pending.map((t) => t.metric).join(', ')}: ${[...new Set(why)].slice(0, 3).join('; ')} — re-run the confirmation`,
  );
}

const plural = (n, what) => `${n} ${what}${n === 1 ? '' : 's'}`;

function awaitRound(p, pending, flags) {
  if (p.out.verdict === 'regression' || p.out.verdict === 'inconclusive') return;
  p.out.verdict = 'inconclusive';
  p.out.awaiting = 'confirmation';
  const metrics = pending.filter((t) => t.owner === p).map((t) => t.metric);
  p.out.reasons.push(
    `awaiting confirmation: ${metrics.join(', ')} may be worse; fresh runs decide (the PR workflow runs them as its confirmation round; by hand: re-run this cell and pass them with ${flags})`,
  );
}

const crossTalkTest = (t) => t.kind === 'latency' && Boolean(t.owner.out.crossTalk);

// A duet whose head burns clearly more CPU per request than its base: cross-talk hides
// part of the head's cost (cross-talk.js).
function crossTalk(base, head) {
  const c = duetCpu(base, head);
  return c && c.headCpuPer1k >= CROSS_TALK_RATIO * c.baseCpuPer1k ? c : null;
}

function latencyTests(live, q, rule, gate, source = LATENCY) {
  const evs = live.map((p) => ({ owner: p, ev: latencyEvidence(q, p.base, p.head, p.pairs, source) }));
  const usable = evs.filter((e) => !e.ev.missing);
  const noise = latencyNoise(
    usable.map((e) => e.ev),
    gate.assumedRunCv,
    gate.assumedDuetCv,
    gate.assumedFaultDuetCv,
  );
  const out = usable.map((e, i) => latencyDecision(e.owner, e.ev, noise[i], rule, gate));
  for (const e of evs.filter((x) => x.ev.missing))
    out.push({
      owner: e.owner,
      kind: 'latency',
      metric: source.metric(q),
      blocking: rule.blocking,
      status: 'missing',
      base: e.ev.base,
      head: e.ev.head,
      // Figures not whole: the cell says which (whole-evidence.js evidenceClosed).
      ...(e.ev.broken ? { broken: e.ev.broken } : {}),
    });
  return out;
}

function latencyDecision(owner, ev, { se, df, varSource }, rule, gate) {
  const alpha = 1 - gate.confidence;
  const crit = tQuantileOrNormal(1 - alpha, df);
  const t = ev.estimate / se;
  return {
    owner,
    kind: 'latency',
    metric: ev.metric,
    blocking: rule.blocking,
    threshold: ruleNumbers(rule).threshold,
    floorMs: round(floorMs(rule, ev.base), 4),
    reliable: ev.reliable,
    base: ev.base,
    head: ev.head,
    deltaMs: round(ev.head - ev.base, 4),
    design: ev.design,
    n: ev.n,
    df: Number.isFinite(df) ? round(df, 2) : null,
    varSource,
    ratio: round(Math.exp(ev.estimate), 4),
    ratioLow: round(Math.exp(ev.estimate - crit * se), 4),
    ratioHigh: round(Math.exp(ev.estimate + crit * se), 4),
    intervalLevel: round(1 - 2 * alpha, 4),
    se,
    pWorse: tSf(t, df),
    pBetter: tSf(-t, df),
    minP: 0, // a continuous test can always reach any p
  };
}

// Worse: the family is every blocking test that could reject; each gets the
// p-value of the two-stage design (confirm.js); Holm over the family at α. Better:
// a single look, Holm at α (an improvement never needs confirming). Advisory and
// unreliable tests form families of their own and only ever warn.
function decide(tests, alpha, second, upTo) {
  const inFamily = (t, dir) => familyMember(t, dir, alpha);
  for (const t of tests) {
    if (t.status === 'missing') continue;
    Object.assign(t, sequentialLook(t, alpha) ?? stagewise(t.pWorse, alpha, second(t), upTo(t)));
  }
  const adjust = (members, key, out) =>
    holm(members.map((t) => t[key])).forEach((p, i) => {
      members[i][out] = p;
    });
  for (const dir of ['Worse', 'Better']) {
    const key = dir === 'Worse' ? 'overallP' : 'pBetter';
    const family = tests.filter((t) => inFamily(t, dir));
    adjust(family, key, `adjP${dir}`);
    const side = tests.filter((t) => !inFamily(t, dir) && t.status !== 'missing');
    adjust(side, key, `adjP${dir}`);
    for (const t of tests) t[`family${dir}`] = inFamily(t, dir) ? family.length : side.length;
  }
  // What this noise lets the gate catch: the true ratio that fails a PR 80% of the time
  // under the whole rule — significance, the threshold and floor, the confirmation round
  // (power.js) — and how many runs per side a significance-only look needs to see ×1.5.
  for (const t of tests.filter((x) => x.kind !== 'errors' && x.se && inFamily(x, 'Worse'))) {
    const m = Math.max(1, t.familyWorse);
    const need = normalQuantile(1 - alpha / m) + normalQuantile(0.8);
    const minLog = Math.max(Math.log1p(t.threshold), t.base > 0 ? Math.log1p(minDelta(t) / t.base) : 0);
    const rule =
      sequentialRuleOf(t, { alpha, m, minLog }) ?? decisionRule({ se: t.se, df: t.df ?? Infinity, alpha, m, minLog });
    const ratio80 = ratioCaught(rule);
    t.detectable = {
      ratio80: ratio80 === null ? null : round(ratio80, 3),
      runsFor1_5: Math.ceil(t.n * ((need * t.se) / Math.log(1.5)) ** 2),
    };
  }
  for (const t of tests) {
    if (t.status === 'missing') continue;
    // A confirmation must replicate: the fresh runs alone show a change worth a red PR
    // too (an extra condition can only make the test stricter).
    const replicated = t.look !== 'second' || big(t.second, +1);
    // A cross-talk duet's size is the interleaved pairs' own (replicated): the duet's may
    // understate it.
    const sized = big(t, +1) || (t.look === 'second' && crossTalkTest(t));
    const worse = t.adjPWorse <= alpha && sized && replicated;
    // An improvement never fails anything, so it is only claimed on overwhelming evidence
    // (the first look's early level): noise must not hand out green ribbons either.
    const better = t.adjPBetter <= EARLY * alpha && big(t, -1);
    let status = worse ? 'regression' : better ? 'improvement' : 'pass';
    if (!t.reliable && status !== 'pass') status = `unreliable-${status}`;
    if (t.look === 'pending' && (!t.blocking || !t.reliable)) t.look = 'first';
    t.status = status;
  }
}

// Significant is not enough: the change must be worth a red PR.
function big(t, sign) {
  if (t.kind === 'errors') return sign * t.extra >= t.minExtra;
  // A failover whose one-sided kills outweigh any shift has no finite ratio (failover.js).
  const ratioOk =
    sign > 0
      ? t.ratio > 1 + t.threshold || t.unbounded === 'above'
      : t.ratio < 1 / (1 + t.threshold) || t.unbounded === 'below';
  return ratioOk && sign * t.deltaMs > minDelta(t);
}

// The absolute change worth a red PR: the floor, unless the test names its own (a
// failover's floor is its cut, failover.js).
const minDelta = (t) => t.minDeltaMs ?? t.floorMs;

// A blocking, reliable test that could reach α at all (Tarone: one that cannot costs
// the family nothing).
function familyMember(t, dir, alpha) {
  return t.blocking && t.reliable && (t.kind === 'latency' || t[`minP${dir}`] <= alpha);
}

function procedureOf(tests, alpha, prepared) {
  const family = tests.filter((t) => familyMember(t, 'Worse', alpha));
  return {
    alpha,
    errorControl:
      'family-wise over every blocking test of the comparison (Holm on two-stage p-values: confirm-on-fail)',
    firstLookLevel: EARLY * alpha,
    blockingTests: family.length,
    // Of the blocking tests above: an advisory test's second look confirms nothing the gate fails on.
    confirmedTests: family.filter((t) => t.look === 'second').length,
    pairedCells: prepared.filter((p) => p.out.design?.paired).length,
  };
}
