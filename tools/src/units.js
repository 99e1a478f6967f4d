// Human units in bench.yaml ("60s", "1KiB", "10%") become numbers here, once.
const DURATION = /^(?:(\d+(?:\.\d+)?)(ms|s|m|h))+$/;
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h)/g;
const MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

// Longest measured phase tailgate accepts: a day (anything longer is a typo).
export const MAX_RUN_MS = 86_400_000;

export function isDuration(text) {
  return typeof text === 'string' && DURATION.test(text);
}

/** "1m30s" -> 90000 (milliseconds). */
export function parseDuration(text) {
  if (typeof text === 'number') return text;
  if (!isDuration(text)) throw new TypeError(`Expected a duration like "60s" or "1m30s", got ${JSON.stringify(text)}`);
  let total = 0;
  for (const [, n, unit] of text.matchAll(PART)) total += Number(n) * MS[unit];
  return total;
}

const SIZE = /^(\d+)(B|KiB|MiB)$/;
const BYTES = { B: 1, KiB: 1024, MiB: 1024 * 1024 };

/** "1KiB" -> 1024 (bytes). */
export function parseSize(text) {
  if (typeof text === 'number') return text;
  const m = SIZE.exec(text);
  if (!m) throw new TypeError(`Expected a size like "0KiB" or "1KiB", got ${JSON.stringify(text)}`);
  return Number(m[1]) * BYTES[m[2]];
}

/** "10%" -> 0.10 */
export function parsePercent(text) {
  if (typeof text === 'number') return text;
  const m = /^(\d+(?:\.\d+)?)%$/.exec(text);
  if (!m) throw new TypeError(`Expected a percentage like "10%", got ${JSON.stringify(text)}`);
  return Number(m[1]) / 100;
}
