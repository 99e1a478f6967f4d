// Change points, not thresholds: where a cell's series (p99, p99.99, error rate over
// commits on main) shifted, found the way Apache Otava (formerly Hunter; Daly et al., ICPE
// 2020) finds them — E-Divisive means proposes the split that best separates the series
// into two distributions (energy distance), the halves are searched again, and a
// Student's t-test between neighbouring change points decides which are real. Latency is taken on the log
// scale, so a shift is a ratio. tools/test/unit/history.test.js matches Otava's own change
// points on the same series where Otava is installed.
import { mean, tSf, variance } from '../compare/stats.js';

// p 1e-4 rather than Otava's 0.001: the best split of a series is chosen before it is
// tested, so the test is optimistic; at 1e-4 a flat 200-point series (noise sd 0.06 in
// log) shows a change point 2 times in 100, and a +15% step is found 100 in 100
// (history.test.js, 100 seeded series each). A nightly job watches many cells × metrics.
export const DETECT_DEFAULTS = Object.freeze({ pValue: 0.0001, minSize: 5 });
const WINDOW = 50;

/**
 * [{ index, p, before, after }] for a numeric series: index = first point after the shift.
 * As Otava: a first pass proposes splits at a relaxed level (10 × pValue); then the
 * weakest change point — its t-test between its neighbouring change points — is dropped
 * until every one left is below pValue.
 */
export function changePoints(values, { pValue = DETECT_DEFAULTS.pValue, minSize = DETECT_DEFAULTS.minSize } = {}) {
  const cps = [];
  const search = (lo, hi) => {
    if (hi - lo < 2 * minSize) return;
    const tau = bestSplit(values, lo, hi, minSize);
    if (tau === null) return;
    if (!(studentP(values.slice(lo, tau), values.slice(tau, hi)) < 10 * pValue)) return;
    cps.push(tau);
    search(lo, tau);
    search(tau, hi);
  };
  search(0, values.length);
  // And within windows of 50 points, as Otava's first pass: a short bump (up, then down a
  // few commits later) hides from a split of the whole series.
  for (let lo = 0; lo + 2 * minSize <= values.length; lo += WINDOW / 2)
    search(lo, Math.min(values.length, lo + WINDOW));
  cps.splice(0, cps.length, ...[...new Set(cps)].sort((a, b) => a - b));
  const pOf = (i) => {
    const lo = i === 0 ? 0 : cps[i - 1];
    const hi = i === cps.length - 1 ? values.length : cps[i + 1];
    return studentP(values.slice(lo, cps[i]), values.slice(cps[i], hi));
  };
  for (;;) {
    if (!cps.length) break;
    const ps = cps.map((_, i) => pOf(i));
    const weakest = ps.indexOf(Math.max(...ps));
    if (ps[weakest] < pValue) break;
    cps.splice(weakest, 1);
  }
  const bounds = [0, ...cps, values.length];
  return cps.map((index, i) => ({
    index,
    p: pOf(i),
    before: mean(values.slice(bounds[i], bounds[i + 1])),
    after: mean(values.slice(bounds[i + 1], bounds[i + 2])),
  }));
}

// E-Divisive means (α = 1): the split τ maximising (mn/(m+n)) · (2/(mn) Σ|x−y| − 1/m² Σ|x−x'|
// − 1/n² Σ|y−y'|) over i<j pairs. Moving τ by one moves one point from the right side to
// the left: the three sums are updated in O(n), O(n²) per segment.
function bestSplit(x, lo, hi, minSize) {
  const n = hi - lo;
  const d = (i, j) => Math.abs(x[i] - x[j]);
  // Start with everything on the right, then move points left one by one.
  let between = 0;
  let wl = 0;
  let wr = 0;
  for (let i = lo; i < hi; i++) for (let j = i + 1; j < hi; j++) wr += d(i, j);
  let best = null;
  let bestQ = -Infinity;
  for (let tau = lo + 1; tau <= hi - minSize; tau++) {
    const moved = tau - 1; // x[moved] joins the left side
    let toLeft = 0;
    let toRight = 0;
    for (let i = lo; i < moved; i++) toLeft += d(i, moved);
    for (let j = moved + 1; j < hi; j++) toRight += d(moved, j);
    between += toRight - toLeft;
    wl += toLeft;
    wr -= toRight;
    const m = tau - lo;
    const k = hi - tau;
    if (m < minSize) continue;
    const q = ((m * k) / n) * ((2 * between) / (m * k) - (2 * wl) / (m * m) - (2 * wr) / (k * k));
    if (q > bestQ) {
      bestQ = q;
      best = tau;
    }
  }
  return best;
}

/**
 * Two-sided Student's t-test p-value, pooled variance — as Otava computes it (scipy's
 * ttest_ind_from_stats given numpy's population standard deviations).
 */
export function studentP(a, b) {
  const [n1, n2] = [a.length, b.length];
  if (n1 + n2 <= 2) return 1;
  const pop = (xs) => (xs.length > 1 ? (variance(xs) * (xs.length - 1)) / xs.length : 0);
  const df = n1 + n2 - 2;
  const pooled = ((n1 - 1) * pop(a) + (n2 - 1) * pop(b)) / df;
  const se = Math.sqrt(pooled * (1 / n1 + 1 / n2));
  if (!(se > 0)) return mean(a) === mean(b) ? 1 : 0;
  return Math.min(1, 2 * tSf(Math.abs((mean(b) - mean(a)) / se), df));
}

const METRICS = {
  p99: { get: (r) => r.latencyMs?.p99, log: true },
  'p99.99': { get: (r) => r.latencyMs?.['p99.99'], log: true },
  errors: { get: (r) => r.errors?.rate, log: false },
};
export const HISTORY_METRICS = Object.keys(METRICS);

/**
 * The change points of one series of history records for a metric: each with the commit
 * range it lies in (last commit before, first after), the size and the direction.
 */
export function seriesChanges(records, metric, opts) {
  const m = METRICS[metric];
  const usable = records.filter((r) => Number.isFinite(m.get(r)) && (!m.log || m.get(r) > 0));
  // A workload change (another rate, duration, script, k6) is a boundary, not a shift:
  // change points are looked for within each stretch of one workload, never across.
  const stretches = [];
  for (const r of usable) {
    const last = stretches.at(-1);
    if (last && last[0].workload === r.workload) last.push(r);
    else stretches.push([r]);
  }
  return stretches.flatMap((points) => stretchChanges(points, m, metric, opts));
}

function stretchChanges(points, m, metric, opts) {
  const values = points.map((r) => (m.log ? Math.log(m.get(r)) : m.get(r)));
  return changePoints(values, opts).map((c) => {
    const [before, after] = m.log ? [Math.exp(c.before), Math.exp(c.after)] : [c.before, c.after];
    const ratio = before > 0 ? after / before : null;
    return {
      metric,
      commit: points[c.index].commit,
      previous: points[c.index - 1].commit,
      time: points[c.index].time,
      run: points[c.index].run ?? null,
      before,
      after,
      ratio: ratio === null ? null : Number(ratio.toFixed(3)),
      direction: after > before ? 'worse' : 'better',
      p: Number(c.p.toPrecision(3)),
    };
  });
}
