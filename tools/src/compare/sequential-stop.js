// Why a sequential cell has fewer pairs than its budget. Its design (sequential-gate.js)
// tests a short cell at an interim look's small share of α — right for a cell the runner
// stopped because its pairs decided it, wrong for one that lost a pair (a side failed, k6
// gave nothing, the job died) while undecided: the small share would pass it for want of
// evidence. The gate trusts no file saying which it was; it reads the pairs themselves:
//   - a stop for a regression needs no check: the runner stops only at p ≤ LOOK_P/m, so
//     the adjusted p-value is red at the gate too, and an adjusted p-value is valid
//     however the cell stopped — a regression verdict stands;
//   - otherwise the cell passes only if the runner's own rule (sequential.js), looking at
//     the same pairs, says they clearly pass (its futility stop); if not, it stopped
//     undecided and is inconclusive, a red check naming why.
// (Runs that reached the budget's last repetition ran to budget, a pair lost on the way:
// sequentialDesign tests them at the final look's share.)
import { interimLook } from './sequential.js';

/** prepared cells with p.sequential (attachSequential) and the gate -> Map p -> why it stopped undecided. */
export function undecidedStops(prepared, gate) {
  const out = new Map();
  for (const p of prepared) {
    const d = p.sequential;
    if (!d?.stopped) continue;
    const look = interimLook({ base: p.base, head: p.head }, gate);
    if (look.decision === 'stop-pass') continue;
    out.set(
      p,
      `its duet stopped after ${d.pairs} of ≤ ${d.maxPairs} pairs, which do not clearly pass it (${look.why}): a pair lost before the cell was decided, or a stop the gate does not confirm — re-run the cell`,
    );
  }
  return out;
}

/** A cell that stopped undecided is not passed (see above); a regression stands. */
export function undecidedClosed(p, why) {
  if (!why || !p.valid || p.out.verdict === 'regression') return;
  p.out.verdict = 'inconclusive';
  p.out.reasons.push(why);
}
