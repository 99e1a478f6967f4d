/** x rounded to `digits` decimal places (3: microseconds when x is in milliseconds). */
export function round(x, digits = 3) {
  const k = 10 ** digits;
  return Math.round(x * k) / k;
}
