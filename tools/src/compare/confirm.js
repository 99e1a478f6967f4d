// Confirm-on-fail as a two-stage adaptive design (Bauer & Köhne; Lehmacher & Wassmer):
// with 3 pairs a ×1.5 p99 change is visible but not certain, and a gate that fails
// a PR on it would also fail one no-op PR in four. So a suspicious test gets fresh
// runs before it can fail the PR, the way Chromium's Pinpoint adds repetitions.
//
// Per test, from its first-look one-sided p-value p1:
//   p1 ≤ EARLY·α        decided at the first look (overwhelming evidence)
//   EARLY·α < p1 ≤ α    a candidate: fresh runs are wanted (`confirm` in the verdict)
//   p1 > α              stop: not a regression
// Given the fresh runs' p-value p2, the stages are combined by the inverse-normal rule
// z = (Φ⁻¹(1−p1) + Φ⁻¹(1−p2)) / √2, and the test's overall p-value is the stage-wise
// ordering one of a design that would continue for every p1 up to BAND:
//   EARLY·α + P₀(EARLY·α < P1 ≤ BAND and a combined z at least this large).
// We continue for fewer (p1 ≤ α, to keep confirmation rounds rare) and give the rest
// p = 1, never less than that design's p-value, so each overall p-value is valid on its
// own and Holm over them controls the PR's false-fail rate at α whatever the dependence
// between cells. The wide band is what lets fresh runs that show nothing clear a
// candidate (with BAND = α every candidate would pass the second look). A candidate
// without fresh runs gets p = 1: it passes, with a warning that says what to re-run.
//
// A duet whose head burns clearly more CPU per request than its base (gate.js,
// crossTalk) continues for every p1 above EARLY·α (upTo = 1): sharing the node, the
// head's cost slows the base too, so its first-look ratio may understate the change and
// only interleaved pairs can tell. Its overall p-value is that design's — continuation
// over the whole band — so it stays valid on its own and Holm still holds.
import { normalQuantile } from '../normal.js';
import { normalPdf, normalSf } from './stats.js';

export const EARLY = 0.02;
export const BAND = 0.3;

export function isCandidate(t, alpha, upTo = alpha) {
  return t.blocking && t.reliable && t.status !== 'missing' && t.pWorse > EARLY * alpha && t.pWorse <= upTo;
}

/** -> { overallP, look: 'first' | 'second' | 'pending' | 'stopped', second } */
export function stagewise(p1, alpha, second, upTo = alpha) {
  if (p1 <= EARLY * alpha) return { overallP: p1, look: 'first' };
  if (p1 > upTo) return { overallP: 1, look: 'stopped' };
  if (!second) return { overallP: 1, look: 'pending' };
  const z = (zOf(p1) + zOf(second.pWorse)) / Math.SQRT2;
  return {
    overallP: Math.min(1, EARLY * alpha + continuationTail(z, alpha, Math.max(alpha, BAND, upTo))),
    look: 'second',
    second,
  };
}

/** The combined z = (Φ⁻¹(1−p1) + Φ⁻¹(1−p2)) / √2 a candidate's two looks need for an
 *  overall p-value ≤ level (Infinity when no second look can get there). */
export function combinedZFor(alpha, level, upTo = alpha) {
  const band = Math.max(alpha, BAND, upTo);
  const overall = (z) => EARLY * alpha + continuationTail(z, alpha, band);
  let lo = -8;
  let hi = 12;
  if (overall(hi) > level) return Infinity;
  for (let i = 0; i < 50; i++) {
    const mid = (lo + hi) / 2;
    if (overall(mid) <= level) hi = mid;
    else lo = mid;
  }
  return hi;
}

// P₀(EARLY·α < P1 ≤ band and (Z1 + Z2)/√2 ≥ z) = ∫ φ(z1) · P(Z2 ≥ √2·z − z1) dz1 over
// the continuation band of z1 (Simpson's rule; the integrand is smooth).
function continuationTail(z, alpha, band) {
  const lo = zOf(band);
  const hi = zOf(EARLY * alpha);
  const steps = 200;
  const h = (hi - lo) / steps;
  let acc = 0;
  for (let i = 0; i <= steps; i++) {
    const z1 = lo + i * h;
    const w = i === 0 || i === steps ? 1 : i % 2 ? 4 : 2;
    acc += w * normalPdf(z1) * normalSf(Math.SQRT2 * z - z1);
  }
  return (acc * h) / 3;
}

/** The z of a one-sided p-value, Φ⁻¹(1−p) = −Φ⁻¹(p), kept finite at p = 0 and 1. */
export function zOf(p) {
  // Not Φ⁻¹(1 − p): 1 − p is exactly 1 below p ≈ 1e-16, whose quantile is Infinity, and
  // the combined z of a confirmation round that showed a change beyond doubt became NaN —
  // a p-value no test rejects on (a 503 canary 0 → 135, confirmed 0 → 127, passed).
  return -normalQuantile(Math.min(Math.max(p, 1e-300), 1 - 1e-16));
}
