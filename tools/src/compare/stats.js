// Small, exact numerical helpers: Student's t quantiles and an exact binomial tail.
// No dependency: each is a few lines and tested against known tables.
import { normalQuantile } from '../normal.js';

export function logGamma(x) {
  // Lanczos approximation (g=7, n=9), |error| < 1e-13 for x > 0.
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  x -= 1;
  let a = c[0];
  const t = x + 7.5;
  for (let i = 1; i < 9; i++) a += c[i] / (x + i);
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(a);
}

// Regularized incomplete beta I_x(a, b) by Lentz's continued fraction.
export function incompleteBeta(x, a, b) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  if (x > (a + 1) / (a + b + 2)) return 1 - incompleteBeta(1 - x, b, a);
  let f = 1;
  let c = 1;
  let d = 0;
  for (let i = 0; i <= 300; i++) {
    const m = Math.floor(i / 2);
    let num;
    if (i === 0) num = 1;
    else if (i % 2 === 0) num = (m * (b - m) * x) / ((a + 2 * m - 1) * (a + 2 * m));
    else num = -((a + m) * (a + b + m) * x) / ((a + 2 * m) * (a + 2 * m + 1));
    d = 1 + num * d;
    if (Math.abs(d) < 1e-30) d = 1e-30;
    d = 1 / d;
    c = 1 + num / c;
    if (Math.abs(c) < 1e-30) c = 1e-30;
    const cd = c * d;
    f *= cd;
    if (Math.abs(1 - cd) < 1e-12) break;
  }
  return (front * (f - 1)) / a;
}

/** P(T <= t) for Student's t with df degrees of freedom. */
export function tCdf(t, df) {
  const x = df / (df + t * t);
  const tail = 0.5 * incompleteBeta(x, df / 2, 0.5);
  return t >= 0 ? 1 - tail : tail;
}

/** Quantile of Student's t (bisection on the CDF; df may be fractional, as Welch's is). */
export function tQuantile(p, df) {
  let lo = -1e3;
  let hi = 1e3;
  // 2e3 / 2^64 is below a double's resolution of any quantile worth asking for.
  for (let i = 0; i < 64; i++) {
    const mid = (lo + hi) / 2;
    if (tCdf(mid, df) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** Exact P(X >= k) for X ~ Binomial(n, p). */
export function binomialUpperTail(k, n, p) {
  if (k <= 0) return 1;
  if (k > n) return 0;
  if (p <= 0) return 0;
  if (p >= 1) return 1;
  const logPmf = (i) =>
    logGamma(n + 1) - logGamma(i + 1) - logGamma(n - i + 1) + i * Math.log(p) + (n - i) * Math.log(1 - p);
  let sum = 0;
  for (let i = k; i <= n; i++) {
    const v = Math.exp(logPmf(i));
    sum += v;
    if (v < sum * 1e-15 && i > n * p) break;
  }
  return Math.min(1, sum);
}

export function mean(xs) {
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}

export function variance(xs) {
  if (xs.length < 2) return 0;
  const m = mean(xs);
  return xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1);
}

/** Quantile of Student's t; df = Infinity (a known variance) gives the normal quantile. */
export function tQuantileOrNormal(p, df) {
  return Number.isFinite(df) ? tQuantile(p, df) : normalQuantile(p);
}

/** P(T > t) for Student's t; df = Infinity gives the normal tail. */
export function tSf(t, df) {
  if (!Number.isFinite(df)) return normalSf(t);
  return 1 - tCdf(t, df);
}

/** The standard normal density. */
export function normalPdf(z) {
  return Math.exp((-z * z) / 2) / Math.sqrt(2 * Math.PI);
}

/** P(Z > z) for a standard normal (Abramowitz–Stegun 7.1.26 via erfc, |error| < 1.5e-7). */
export function normalSf(z) {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erfc =
    t *
    (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))) *
    Math.exp(-x * x);
  return z >= 0 ? erfc / 2 : 1 - erfc / 2;
}

/**
 * Holm's step-down adjustment: adjusted p-values that control the family-wise
 * error rate (the chance that any of the tests is a false alarm) at α when
 * compared with α. Valid under any dependence between the tests.
 */
export function holm(ps) {
  const order = ps.map((p, i) => [p, i]).sort((a, b) => a[0] - b[0]);
  const out = new Array(ps.length);
  let running = 0;
  order.forEach(([p, i], rank) => {
    running = Math.max(running, Math.min(1, (ps.length - rank) * p));
    out[i] = running;
  });
  return out;
}

// Wilcoxon's signed-rank test: exact (the permutation distribution of the signs given the
// ranks, ties as mid-ranks) up to EXACT_SIGNED_RANK observations, normal beyond.
const EXACT_SIGNED_RANK = 50;

/**
 * Is d centred above zero (pGreater) or below (pLess)? Zeros are dropped (Wilcoxon's
 * rule). -> { n, tPlus, pGreater, pLess, exact }
 */
export function signedRank(d) {
  const x = d.filter((v) => v !== 0 && Number.isFinite(v));
  const n = x.length;
  if (!n) return { n: 0, tPlus: 0, pGreater: 1, pLess: 1, exact: true };
  const rank2 = doubledRanks(x.map(Math.abs));
  const t2 = x.reduce((a, v, i) => a + (v > 0 ? rank2[i] : 0), 0);
  if (n <= EXACT_SIGNED_RANK) {
    const dist = signDistribution(rank2);
    let le = 0;
    let ge = 0;
    dist.forEach((p, s) => {
      if (s <= t2) le += p;
      if (s >= t2) ge += p;
    });
    return { n, tPlus: t2 / 2, pGreater: Math.min(1, ge), pLess: Math.min(1, le), exact: true };
  }
  const mean2 = (n * (n + 1)) / 2;
  const sd2 = Math.sqrt(rank2.reduce((a, r) => a + r * r, 0)) / 2;
  // Continuity: the doubled statistic moves in steps of 2 (1 where mid-ranks are halves).
  return {
    n,
    tPlus: t2 / 2,
    pGreater: normalSf((t2 - 1 - mean2) / sd2),
    pLess: normalSf((mean2 - t2 - 1) / sd2),
    exact: false,
  };
}

// Mid-ranks, doubled so they are integers (ties of two share 2k+1 / 2).
function doubledRanks(v) {
  const order = v.map((a, i) => [a, i]).sort((a, b) => a[0] - b[0]);
  const out = new Array(v.length);
  for (let i = 0; i < order.length;) {
    let j = i;
    while (j + 1 < order.length && order[j + 1][0] === order[i][0]) j++;
    for (let k = i; k <= j; k++) out[order[k][1]] = i + j + 2;
    i = j + 1;
  }
  return out;
}

// P(Σ of a random half of the weights = s), each weight in with probability ½.
function signDistribution(weights) {
  const total = weights.reduce((a, b) => a + b, 0);
  let dist = new Float64Array(total + 1);
  dist[0] = 1;
  let reach = 0;
  for (const w of weights) {
    const next = new Float64Array(total + 1);
    for (let s = 0; s <= reach; s++) {
      if (!dist[s]) continue;
      next[s] += dist[s] / 2;
      next[s + w] += dist[s] / 2;
    }
    reach += w;
    dist = next;
  }
  return dist;
}

// Walsh averages kept at most: n(n+1)/2 of them, so a few thousand observations.
const MAX_WALSH_N = 2000;

/**
 * The Hodges–Lehmann estimate of d's centre (the median of its Walsh averages) and the
 * interval the signed-rank test inverts to: two-sided 1 − 2α, so its lower end is the
 * one-sided α test's bound (null where n is too small to reach α).
 */
export function hodgesLehmann(d, alpha) {
  let x = d.filter(Number.isFinite).sort((a, b) => a - b);
  // Beyond MAX_WALSH_N, evenly spaced order statistics stand in for the rest.
  if (x.length > MAX_WALSH_N)
    x = Array.from({ length: MAX_WALSH_N }, (_, i) => x[Math.floor((i * x.length) / MAX_WALSH_N)]);
  const n = x.length;
  if (!n) return { estimate: null, low: null, high: null };
  const walsh = new Float64Array((n * (n + 1)) / 2);
  let k = 0;
  for (let i = 0; i < n; i++) for (let j = i; j < n; j++) walsh[k++] = (x[i] + x[j]) / 2;
  walsh.sort();
  const N = walsh.length;
  const estimate = N % 2 ? walsh[N >> 1] : (walsh[N / 2 - 1] + walsh[N / 2]) / 2;
  const c = signedRankCritical(n, alpha);
  return c < 1 ? { estimate, low: null, high: null } : { estimate, low: walsh[c - 1], high: walsh[N - c] };
}

// The largest c with P₀(T⁺ ≤ c − 1) ≤ α for n untied observations (0: none).
function signedRankCritical(n, alpha) {
  if (n > EXACT_SIGNED_RANK) {
    const N = (n * (n + 1)) / 2;
    const sd = Math.sqrt((n * (n + 1) * (2 * n + 1)) / 24);
    return Math.max(0, Math.floor(N / 2 - normalQuantile(1 - alpha) * sd + 0.5));
  }
  const dist = signDistribution(Array.from({ length: n }, (_, i) => 2 * (i + 1)));
  let cum = 0;
  let c = 0;
  for (let t = 0; t <= n * (n + 1) && cum + dist[2 * t] <= alpha; t++) {
    cum += dist[2 * t];
    c = t + 1;
  }
  return c;
}

// Sign-flip tests exact up to this many pairs; normal beyond (the distribution's support
// grows with the square of the pairs).
const EXACT_SIGN_FLIP = 300;

/**
 * A paired sign-flip test of pairs that carry a magnitude, d (log ratios), and pairs that
 * carry a sign only — `up` with the second member worse, `down` with the first. The
 * statistic is the signed-rank sum of d plus, for each sign-only pair, the mean rank
 * (n + 1) / 2 of the n ranked ones: a pair that says which side was worse but not by how
 * much counts as a typical one, neither the largest (which would let luck of the side
 * decide) nor nothing. Its distribution is the permutation distribution of every pair's
 * sign under "no change": exact up to EXACT_SIGN_FLIP pairs (zeros in d dropped, ties as
 * mid-ranks), normal beyond. With up = down = 0 it is signedRank.
 *
 * The estimate is the shift θ of d that the test finds balanced — the Hodges–Lehmann
 * estimate moved by the sign-only pairs — and the interval (two-sided 1 − 2α) the θ the
 * test at α does not reject either way: null where the sign-only pairs outweigh every
 * shift of d (unbounded: 'above' — the second member worse whatever the shift).
 * -> { n, m, pGreater, pLess, minP, estimate, low, high, unbounded, exact }
 */
export function signOnlyRank(d, up, down, alpha) {
  const x = d.filter((v) => v !== 0 && Number.isFinite(v));
  const n = x.length;
  const m = up + down;
  const rank2 = doubledRanks(x.map(Math.abs));
  const c2 = n + 1; // the mean rank, doubled
  const weights = [...rank2, ...Array(m).fill(c2)];
  const total = weights.reduce((a, b) => a + b, 0);
  const t2 = x.reduce((a, v, i) => a + (v > 0 ? rank2[i] : 0), 0) + up * c2;
  const tail = tails(weights, total);
  const ge = (t) => tail.ge(t);
  const le = (t) => tail.le(t);
  // Walsh averages of d: W(θ) = #{averages > θ} is the signed-rank sum of d − θ.
  const walsh = walshAverages(x);
  const N = walsh.length;
  // θ where 2·W(θ) + c2·k = s (k: sign-only pairs counted up), as a Walsh quantile.
  const at = (s, k) => {
    const above = (s - c2 * k) / 2; // averages that must lie above θ
    const idx = N - above;
    if (idx >= N) return Infinity;
    if (idx <= 0) return -Infinity;
    return (walsh[Math.ceil(idx) - 1] + walsh[Math.floor(idx)]) / 2;
  };
  const estimate = n + m ? at(total / 2, up) : NaN;
  // Critical sums of each tail at α: the smallest s with P(T ≥ s) ≤ α (and its mirror).
  const crit = tail.critical(alpha);
  const low = crit === null ? -Infinity : bound(walsh, (crit - c2 * up) / 2);
  const high = crit === null ? Infinity : -bound(walshAverages(x.map((v) => -v)), (crit - c2 * down) / 2);
  const fin = (v) => (Number.isFinite(v) ? v : null);
  return {
    n,
    m,
    pGreater: Math.min(1, ge(t2)),
    pLess: Math.min(1, le(t2)),
    minP: n + m ? 2 ** -(n + m) : 1,
    estimate: fin(estimate),
    low: fin(low),
    high: fin(high),
    ...(estimate === Infinity ? { unbounded: 'above' } : estimate === -Infinity ? { unbounded: 'below' } : {}),
    exact: tail.exact,
  };
}

// The interval's lower end (as hodgesLehmann's): the test rejects a shift θ when at
// least `a` Walsh averages lie above it, so the least θ it keeps is the (N − ⌈a⌉ + 1)-th
// smallest; ±∞ where it keeps every θ or none. The upper end is the mirrored data's.
function bound(walsh, a) {
  const k = Math.ceil(a - 1e-9);
  if (k <= 0) return Infinity;
  if (k > walsh.length) return -Infinity;
  return walsh[walsh.length - k];
}

function walshAverages(x) {
  const n = x.length;
  const w = new Float64Array((n * (n + 1)) / 2);
  let k = 0;
  for (let i = 0; i < n; i++) for (let j = i; j < n; j++) w[k++] = (x[i] + x[j]) / 2;
  return w.sort();
}

// The sign-flip sum's tails: exact (each weight in with probability ½) or normal.
function tails(weights, total) {
  if (weights.length <= EXACT_SIGN_FLIP) {
    const dist = signDistribution(weights);
    const upper = new Float64Array(total + 2);
    for (let s = total; s >= 0; s--) upper[s] = upper[s + 1] + dist[s];
    return {
      exact: true,
      ge: (t) => (t <= 0 ? 1 : t > total ? 0 : upper[t]),
      le: (t) => (t >= total ? 1 : t < 0 ? 0 : 1 - upper[t + 1]),
      // The smallest s with P(T ≥ s) ≤ α; null: no sum is that rare.
      critical: (alpha) => {
        for (let s = 0; s <= total; s++) if (upper[s] <= alpha) return s;
        return null;
      },
    };
  }
  const mean = total / 2;
  const sd = Math.sqrt(weights.reduce((a, w) => a + w * w, 0)) / 2;
  return {
    exact: false,
    ge: (t) => normalSf((t - 1 - mean) / sd),
    le: (t) => normalSf((mean - t - 1) / sd),
    critical: (alpha) => Math.ceil(mean + normalQuantile(1 - alpha) * sd + 1),
  };
}

/**
 * Fisher's combination of two independent one-sided p-values: P(χ²₄ ≥ −2 ln(p₁p₂)). With a
 * discrete test among them it is conservative (each p is at least uniform under H₀).
 */
export function fisherCombined(p1, p2) {
  const x = -2 * (Math.log(Math.max(p1, 1e-300)) + Math.log(Math.max(p2, 1e-300)));
  return Math.min(1, Math.exp(-x / 2) * (1 + x / 2));
}

/** Exact one-sided McNemar test: P(X ≥ k) for X ~ Binomial(k + other, ½); 1 without a discordant pair. */
export function mcNemar(k, other) {
  return k + other ? binomialUpperTail(k, k + other, 0.5) : 1;
}
