// Small, exact numerical helpers: Student's t quantiles and an exact binomial tail.
// No dependency: each is a few lines and tested against known tables.
import { normalQuantile } from '../result/histogram.js';

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
