// Sequential pairs for a duet cell (matrix `maxRepetitions`): before each optional pair
// the runner asks whether the pairs so far already decide the cell. A pure function of
// the cell's pairs and the gate's rules; the gate itself adjusts such a cell's p-values
// for the looks (sequential-gate.js), so stopping never raises the PR's false-fail rate.
//
// The rule at a look (n ≥ repetitions pairs), on the evidence the gate uses (latency.js,
// errors.js; the cell alone, its noise moderated towards the assumed duet level):
//   stop-regression  a blocking test is beyond doubt — one-sided p ≤ LOOK_P/m (Haybittle–
//                    Peto; m bounds the PR's family from above, familyBound, so the gate's
//                    Holm rejects what made the runner stop) — and its change is worth a
//                    red PR;
//   stop-pass        every blocking test of the cell can decide now, every blocking latency
//                    test's one-sided 80% upper bound of the ratio is below 1 + threshold
//                    and no error group that could reach α is anywhere near significant
//                    (p > 0.5) — more pairs would very likely not fail it. A blocking test
//                    that cannot decide yet (a failover test short of kills that stalled
//                    both sides, a quantile short of tail samples) keeps the cell going:
//                    its pairs are what would let it decide (before, it was left out, the
//                    cell stopped "clearly passing", and the same cell run to its budget
//                    failed — tools/test/unit/stop-decidable.test.js);
//   continue         otherwise, up to maxRepetitions.
import { SEQUENTIAL_FUTILITY_LEVEL as FUTILITY_LEVEL } from '../config/matrix-limits.js';
import { ruleNumbers } from '../config/normalise.js';
import { KILL_FAULTS, ROUTE_FAULTS } from '../faults/schedule.js';
import { ERROR_GROUPS, errorEvidence, errorTest } from './errors.js';
import { failoverTests, failoverWithin } from './failover.js';
import { floorMs, LATENCY, latencyEvidence, latencyNoise } from './latency.js';
import { moderate } from './noise.js';
import { matchPairs } from './pairs.js';
import { hasPropagation, PROPAGATION } from './propagation.js';
import { LOOK_P } from './sequential-gate.js';
import { tSf } from './stats.js';
import { pValue } from '../numbers.js';

export { LOOK_P };
// The futility bound's one-sided level (matrix-limits.js), and the error groups' "nowhere
// near" p-value.
export { FUTILITY_LEVEL };
export const QUIET_ERRORS_P = 0.5;

/**
 * sides: { base: reps, head: reps } of one cell; gate: its matrix's gate rules;
 * look: { family: familyBound of the PR's plan (default 1), futility: true }.
 * -> { decision: 'continue' | 'stop-regression' | 'stop-pass', why, pairs }
 */
export function interimLook({ base, head }, gate, { family = 1, futility = true } = {}) {
  const match = matchPairs(base, head);
  if (!match.pairs) return { decision: 'continue', why: `not judged: ${match.why}`, pairs: 0 };
  const pairs = match.pairs.length;
  const tests = [
    ...latencyLooks(base, head, match.pairs, gate),
    ...failoverLooks(base, head, match.pairs, gate),
    ...errorLooks(base, head, gate),
  ];
  const blocking = tests.filter((t) => t.blocking && t.reliable);
  const bar = LOOK_P / Math.max(1, family);
  const clear = blocking.find((t) => t.pWorse <= bar && t.big);
  if (clear)
    return { decision: 'stop-regression', why: `${clear.text}, p=${fmtP(clear.pWorse)} ≤ ${fmtP(bar)}`, pairs };
  const latency = blocking.filter((t) => t.kind !== 'errors');
  const errors = blocking.filter((t) => t.kind === 'errors');
  const within = latency.filter((t) => t.pWithin <= 1 - FUTILITY_LEVEL);
  // A group that cannot reach α with these counts cannot fail anything yet (Tarone).
  const alpha = 1 - gate.confidence;
  const loud = errors.filter((t) => t.minP <= alpha && !(t.pWorse > QUIET_ERRORS_P));
  const undecidable = tests.filter((t) => t.blocking && !t.reliable);
  if (undecidable.length)
    return {
      decision: 'continue',
      why: `cannot decide yet: ${undecidable.map((t) => `${t.text}${t.why ? ` (${t.why})` : ''}`).join('; ')}`,
      pairs,
    };
  if (futility && latency.length && within.length === latency.length && !loud.length)
    return {
      decision: 'stop-pass',
      why: latency.map((t) => `${t.text}, clearly within ${Math.round(100 * t.threshold)}%`).join('; '),
      pairs,
    };
  const open = [...latency.filter((t) => !within.includes(t)), ...loud];
  return {
    decision: 'continue',
    why: open.length ? `open: ${open.map((t) => t.text).join('; ')}` : 'no blocking latency test to judge',
    pairs,
  };
}

const fmtP = (p) => (p < 1e-3 ? p.toExponential(1) : String(pValue(p)));

function latencyLooks(base, head, pairs, gate) {
  const out = [];
  const one = (q, rule, source) => {
    // Advisory quantiles never fail a PR: they cannot decide a cell either.
    if (!rule.blocking) return;
    const ev = latencyEvidence(q, base, head, pairs, source);
    if (ev.missing) return;
    const [noise] = latencyNoise([ev], gate.assumedRunCv, gate.assumedDuetCv, gate.assumedFaultDuetCv);
    const threshold = ruleNumbers(rule).threshold;
    const ratio = Math.exp(ev.estimate);
    out.push({
      kind: 'latency',
      blocking: rule.blocking,
      reliable: ev.reliable,
      threshold,
      pWorse: tSf(ev.estimate / noise.se, noise.df),
      // The one-sided 80% upper bound of the ratio is below 1 + threshold exactly when
      // the test of "at least 1 + threshold" has p ≤ 0.2 (one tail, no quantile search).
      pWithin: tSf((Math.log1p(threshold) - ev.estimate) / noise.se, noise.df),
      big: ratio > 1 + threshold && ev.head - ev.base > floorMs(rule, ev.base),
      text: `${ev.metric} ×${ratio.toFixed(2)}`,
    });
  };
  for (const [q, rule] of Object.entries(gate.latency)) one(q, rule, LATENCY);
  if (hasPropagation({ base, head }))
    for (const [q, rule] of Object.entries(gate.propagation ?? {})) one(q, rule, PROPAGATION);
  return out;
}

// A duet pod-kill cell's failover, kill by kill (failover.js). Clearly within: its change's
// one-sided 80% upper bound under 1 + threshold, the latency tests' futility bound (until
// 2026-12 the gate's 90% two-sided interval: a haproxy-ingress no-op PR, whose few kills
// leave that interval wide, ran to 6 pairs, 395 s, where 3–4 take 4–5 min). One that cannot
// decide (too few kills, kill lists that are not one schedule) is kept, unreliable: it
// holds a stop for a pass back. One where no kill stalled the head (calm) is decided.
function failoverLooks(base, head, pairs, gate) {
  return failoverTests([{ base, head, pairs }], gate).map((t) => ({
    kind: 'failover',
    blocking: t.blocking,
    reliable: t.reliable || Boolean(t.calm),
    threshold: t.threshold,
    pWorse: t.pWorse,
    pWithin: failoverWithin(t) ? 0 : 1,
    big:
      (t.unbounded === 'above' || (t.ratio !== null && t.ratio > 1 + t.threshold)) &&
      t.deltaMs > (t.minDeltaMs ?? t.floorMs),
    text: t.ratio === null ? t.metric : `${t.metric} ×${t.ratio.toFixed(2)}`,
    ...(t.why ? { why: t.why } : {}),
  }));
}

function errorLooks(base, head, gate) {
  const out = [];
  for (const group of Object.keys(ERROR_GROUPS)) {
    const ev = errorEvidence(group, base, head);
    if (!ev.testable) continue;
    // The cell alone: its own dispersion, as the gate's would be with no other cell.
    const [noise] = moderate([ev]);
    const phi = Math.max(1, noise.var ?? 1);
    const r = errorTest(ev, phi, noise.var > 1 ? noise.df : 0);
    const share = ev.headRequests / Math.max(1, ev.headRequests + ev.baseRequests);
    out.push({
      kind: 'errors',
      blocking: gate.errors.blocking,
      reliable: true,
      pWorse: r.pWorse,
      minP: share ** Math.floor((ev.base + ev.head) / phi + 1e-9),
      big: r.extra >= gate.errors.minExtra,
      text: `errors ${group} ${ev.base} → ${ev.head}`,
    });
  }
  return out;
}

/**
 * At most how many blocking tests the gate's family will hold for a plan's cells: each
 * cell's blocking latency quantiles, its propagation quantiles where it edits routes, its
 * failover where it kills pods, and every error group. An interim stop for a regression
 * at p ≤ LOOK_P / this is red at the gate too (p' = p·α/LOOK_P ≤ α/m, Holm's first step);
 * a smaller m stopped cells the gate then passed (in the simulation, ×1.10 was caught 78%
 * with m counting latency only, 86% so).
 */
export function familyBound(cells, gate) {
  const blocking = (rules) => Object.values(rules ?? {}).filter((r) => r.blocking).length;
  const routed = (s) => Boolean(s?.routes) || (s?.faults ?? []).some((f) => ROUTE_FAULTS.includes(f.type));
  const killed = (s) => (s?.faults ?? []).some((f) => KILL_FAULTS.includes(f.type));
  const seen = new Map(cells.map((c) => [c.key, c]));
  let m = 0;
  for (const c of seen.values())
    m +=
      blocking(gate.latency) +
      (routed(c.scenario) ? blocking(gate.propagation) : 0) +
      (killed(c.scenario) && gate.failover?.blocking ? 1 : 0) +
      (gate.errors.blocking ? Object.keys(ERROR_GROUPS).length : 0);
  return Math.max(1, m);
}
