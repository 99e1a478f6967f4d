// What the gate, as it decides, catches: the true p99 change it fails a PR on 80% of the
// time. Significance alone is not the rule (gate.js decide): the change must also be worth
// a red PR (the rule's threshold and floor), and a candidate is only failed when its
// confirmation round is significant combined and big enough on its own too (confirm.js).
// A ×1.14 change under a 10% threshold is significant at 3 pairs but one look in three
// falls under ×1.10: the significance-only figure (×1.10) said it would be caught, and
// init's pr matrix caught it in 1 PR of 5 (docs/duet.md). The model: the test's t
// statistic is the true shift in standard errors plus a standard normal, each look
// independent, with the family's Bonferroni share of α (Holm's first step).
import { EARLY, combinedZFor, zOf } from './confirm.js';
import { normalPdf, normalSf, tQuantileOrNormal, tSf } from './stats.js';

const STEPS = 40; // Simpson over the candidates' band of first-look statistics
const MAX_LOG = Math.log(100);

/**
 * The decision rule of one latency test on the t scale, for power at any true change:
 * { se, df, alpha, m: the family's size, minLog: the smallest log-ratio worth a red PR }.
 */
export function decisionRule({ se, df, alpha, m, minLog }) {
  const level = alpha / Math.max(1, m);
  const minT = minLog / se;
  // The first look alone fails a PR at p1 ≤ EARLY·α (and Holm's m·p1 ≤ α).
  const tEarly = tQuantileOrNormal(1 - Math.min(EARLY * alpha, level), df);
  // Candidates (EARLY·α < p1 ≤ α) are failed by their confirmation round.
  const tCand = Math.max(tQuantileOrNormal(1 - alpha, df), minT);
  const zStar = combinedZFor(alpha, level);
  const band = [];
  if (tCand < tEarly && Number.isFinite(zStar)) {
    const h = (tEarly - tCand) / STEPS;
    for (let i = 0; i <= STEPS; i++) {
      const t1 = tCand + i * h;
      const p2 = normalSf(Math.SQRT2 * zStar - zOf(tSf(t1, df)));
      const t2 = p2 > 0 ? tQuantileOrNormal(1 - p2, df) : Infinity;
      band.push({ t1, t2: Math.max(t2, minT), w: ((i === 0 || i === STEPS ? 1 : i % 2 ? 4 : 2) * h) / 3 });
    }
  }
  return { se, first: Math.max(tEarly, minT), band };
}

/** P(the gate fails the PR on this test) when the true log-ratio is mu. */
export function powerAt(rule, mu) {
  const shift = mu / rule.se;
  let p = normalSf(rule.first - shift);
  for (const b of rule.band) p += b.w * normalPdf(b.t1 - shift) * normalSf(b.t2 - shift);
  return Math.min(1, p);
}

/** The true ratio caught with probability `power` (null beyond ×100: this noise cannot). */
export function ratioCaught(rule, power = 0.8) {
  if (powerAt(rule, MAX_LOG) < power) return null;
  let lo = 0;
  let hi = MAX_LOG;
  for (let i = 0; i < 50; i++) {
    const mid = (lo + hi) / 2;
    if (powerAt(rule, mid) >= power) hi = mid;
    else lo = mid;
  }
  return Math.exp(hi);
}
