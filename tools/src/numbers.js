/** A p-value for people: two significant digits, exponent form below 1e-4. */
export function pValue(p) {
  if (p === undefined || p === null) return null;
  return p < 1e-4 ? Number(p.toExponential(1)) : Number(p.toPrecision(2));
}

/** x at `digits` significant digits, for people (×1.49, 0.698). */
export function sig(x, digits = 3) {
  return Number(Number(x).toPrecision(digits));
}

/** x rounded to `digits` decimal places (3: microseconds when x is in milliseconds). */
export function round(x, digits = 3) {
  const k = 10 ** digits;
  return Math.round(x * k) / k;
}

export function median(xs) {
  const s = xs.filter((x) => x !== null && x !== undefined).sort((a, b) => a - b);
  if (!s.length) return null;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Milliseconds for people at about 3 significant digits (2.15, 14.1, 123): every
 *  table, reason line and chart label shows a latency this way. */
export function msText(v) {
  if (v >= 100) return v.toFixed(0);
  if (v >= 10) return v.toFixed(1);
  return v.toFixed(2);
}
