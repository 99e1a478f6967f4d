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
// Bounded work, whatever the values (docs/results.md, "Inputs from elsewhere"): the search over the whole
// series goes at most this deep (each level splits a part of the series: at most n points
// per level, O(n log n) per split), so a series that splits off minSize points at a time
// — which made the unbounded search O(n³) — costs no more than a balanced one. 2^16
// parts is far past what a nightly series of 20,000 points holds; shorter-lived shifts
// are what the windows below are for.
export const MAX_SEARCH_DEPTH = 16;

/**
 * [{ index, p, before, after }] for a numeric series: index = first point after the shift.
 * As Otava: a first pass proposes splits at a relaxed level (10 × pValue); then the
 * weakest change point — its t-test between its neighbouring change points — is dropped
 * until every one left is below pValue. `stats.examined` counts the points the splits read.
 */
export function changePoints(
  values,
  { pValue = DETECT_DEFAULTS.pValue, minSize = DETECT_DEFAULTS.minSize } = {},
  stats = { examined: 0 },
) {
  const found = new Set();
  const search = (lo, hi, depth) => {
    if (hi - lo < 2 * minSize || depth > MAX_SEARCH_DEPTH) return;
    stats.examined += hi - lo; // the points one split reads (make perf times the worst)
    const tau = bestSplit(values, lo, hi, minSize);
    if (tau === null) return;
    if (!(studentP(values.slice(lo, tau), values.slice(tau, hi)) < 10 * pValue)) return;
    found.add(tau);
    search(lo, tau, depth + 1);
    search(tau, hi, depth + 1);
  };
  search(0, values.length, 0);
  // And within windows of 50 points, as Otava's first pass: a short bump (up, then down a
  // few commits later) hides from a split of the whole series.
  for (let lo = 0; lo + 2 * minSize <= values.length; lo += WINDOW / 2)
    search(lo, Math.min(values.length, lo + WINDOW), 0);
  const cps = [...found].sort((a, b) => a - b);
  // Dropping the weakest one at a time: each segment's sums come from prefix sums, and a
  // drop changes only its two neighbours' p — O(k²) comparisons, O(k) t-tests for k
  // candidates, not O(k · n).
  const seg = segmentStats(values);
  const pOf = (i) => {
    const lo = i === 0 ? 0 : cps[i - 1];
    const hi = i === cps.length - 1 ? values.length : cps[i + 1];
    return studentPFromStats(seg(lo, cps[i]), seg(cps[i], hi));
  };
  const ps = cps.map((_, i) => pOf(i));
  while (cps.length) {
    let weakest = 0;
    for (let i = 1; i < ps.length; i++) if (ps[i] > ps[weakest]) weakest = i;
    if (ps[weakest] < pValue) break;
    cps.splice(weakest, 1);
    ps.splice(weakest, 1);
    if (weakest > 0) ps[weakest - 1] = pOf(weakest - 1);
    if (weakest < cps.length) ps[weakest] = pOf(weakest);
  }
  refine(cps, seg, values.length, minSize);
  for (let i = 0; i < cps.length; i++) ps[i] = pOf(i);
  const bounds = [0, ...cps, values.length];
  return cps.map((index, i) => ({
    index,
    p: ps[i],
    before: mean(values.slice(bounds[i], bounds[i + 1])),
    after: mean(values.slice(bounds[i + 1], bounds[i + 2])),
  }));
}

// Where, between its neighbours, each change point belongs. E-Divisive proposes the split
// that best separates two *distributions* over the part of the series being searched,
// which may reach past the neighbouring change points found later: a ×1.15 step at noise
// 0.05 was placed 3 points late on p99 and 4 early on p99.99. Between its neighbours a
// change point separates two stretches of one level each, and the split that does that
// best is the least-squares one: the largest m·k/(m+k)·(mean₁ − mean₂)², O(1) per
// candidate from the prefix sums. Moving one can move the best place of the next, so
// passes repeat until none moves (bounded: each pass is O(n)).
const REFINE_PASSES = 10;
function refine(cps, seg, length, minSize) {
  for (let pass = 0; pass < REFINE_PASSES; pass++) {
    let moved = false;
    for (let i = 0; i < cps.length; i++) {
      const lo = i === 0 ? 0 : cps[i - 1];
      const hi = i === cps.length - 1 ? length : cps[i + 1];
      let best = cps[i];
      let bestQ = separation(seg(lo, best), seg(best, hi));
      for (let tau = lo + minSize; tau <= hi - minSize; tau++) {
        const q = separation(seg(lo, tau), seg(tau, hi));
        if (q > bestQ) [best, bestQ] = [tau, q];
      }
      if (best !== cps[i]) [cps[i], moved] = [best, true];
    }
    if (!moved) return;
  }
}

const separation = (a, b) => ((a.n * b.n) / (a.n + b.n)) * (a.mean - b.mean) ** 2;

// E-Divisive means (α = 1): the split τ maximising (mn/(m+n)) · (2/(mn) Σ|x−y| − 1/m² Σ|x−x'|
// − 1/n² Σ|y−y'|) over i<j pairs. Moving τ by one moves one point from the right side to
// the left. Its distance to the left side comes from two Fenwick trees over the
// segment's ranks (count and sum of the left side's values below and above it), its
// distance to the whole segment from the sorted prefix sums: O(n log n) per segment.
function bestSplit(x, lo, hi, minSize) {
  const n = hi - lo;
  const order = Array.from({ length: n }, (_, k) => lo + k).sort((a, b) => x[a] - x[b]);
  const rank = new Int32Array(n);
  const sorted = new Float64Array(n);
  order.forEach((i, r) => {
    rank[i - lo] = r;
    sorted[r] = x[i];
  });
  const prefix = new Float64Array(n + 1);
  for (let r = 0; r < n; r++) prefix[r + 1] = prefix[r] + sorted[r];
  // Σ_j |x_i − x_j| over the whole segment, for the point of rank r.
  const toAll = (r) => r * sorted[r] - prefix[r] + (prefix[n] - prefix[r + 1]) - (n - r - 1) * sorted[r];
  const cnt = new Float64Array(n + 1);
  const sum = new Float64Array(n + 1);
  const add = (r, v) => {
    for (let k = r + 1; k <= n; k += k & -k) {
      cnt[k] += 1;
      sum[k] += v;
    }
  };
  const below = (r) => {
    let c = 0;
    let s = 0;
    for (let k = r; k > 0; k -= k & -k) {
      c += cnt[k];
      s += sum[k];
    }
    return [c, s];
  };
  let wr = 0;
  for (let r = 0; r < n; r++) wr += toAll(r);
  wr /= 2;
  let between = 0;
  let wl = 0;
  let leftCount = 0;
  let leftSum = 0;
  let best = null;
  let bestQ = -Infinity;
  for (let tau = lo + 1; tau <= hi - minSize; tau++) {
    const moved = tau - 1; // x[moved] joins the left side
    const r = rank[moved - lo];
    const v = x[moved];
    const [cb, sb] = below(r);
    const toLeft = cb * v - sb + (leftSum - sb) - (leftCount - cb) * v;
    const toRight = toAll(r) - toLeft;
    between += toRight - toLeft;
    wl += toLeft;
    wr -= toRight;
    add(r, v);
    leftCount += 1;
    leftSum += v;
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
  const stats = (xs) => ({ n: xs.length, mean: xs.length ? mean(xs) : 0, ss: variance(xs) * (xs.length - 1) });
  return studentPFromStats(stats(a), stats(b));
}

/** The same from each side's count, mean and sum of squared deviations. */
function studentPFromStats(a, b) {
  const [n1, n2] = [a.n, b.n];
  if (n1 + n2 <= 2) return 1;
  // numpy's population variance (ss/n), weighted by n−1 as scipy does with what it is given.
  const pop = (s) => (s.n > 1 ? Math.max(0, s.ss) / s.n : 0);
  const df = n1 + n2 - 2;
  const pooled = ((n1 - 1) * pop(a) + (n2 - 1) * pop(b)) / df;
  const se = Math.sqrt(pooled * (1 / n1 + 1 / n2));
  // Prefix sums leave rounding where two-pass sums leave zero: below this, zero.
  const tiny = 1e-12 * Math.max(1, Math.abs(a.mean), Math.abs(b.mean));
  if (!(se > tiny)) return Math.abs(b.mean - a.mean) <= tiny ? 1 : 0;
  return Math.min(1, 2 * tSf(Math.abs((b.mean - a.mean) / se), df));
}

// (lo, hi) -> {n, mean, ss} of values[lo..hi) in O(1), from prefix sums of the values
// taken about the series' mean (which keeps Σx² − (Σx)²/n clear of cancellation).
function segmentStats(values) {
  const c = values.length ? mean(values) : 0;
  const s1 = new Float64Array(values.length + 1);
  const s2 = new Float64Array(values.length + 1);
  values.forEach((v, i) => {
    s1[i + 1] = s1[i] + (v - c);
    s2[i + 1] = s2[i] + (v - c) ** 2;
  });
  return (lo, hi) => {
    const n = hi - lo;
    const d1 = s1[hi] - s1[lo];
    return { n, mean: c + d1 / n, ss: s2[hi] - s2[lo] - (d1 * d1) / n };
  };
}

const METRICS = {
  p99: { get: (r) => r.latencyMs?.p99, log: true },
  'p99.99': { get: (r) => r.latencyMs?.['p99.99'], log: true },
  errors: { get: (r) => r.errors?.rate, log: false },
  // Cells with route faults only; a series without it has no points for it.
  propagation: { get: (r) => r.propagationMs?.p50, log: true },
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
