// Number formatting shared by every renderer, so the terminal table, the PR
// comment and the charts never disagree about a value.
import { msText } from '../numbers.js';

export { plural } from '../compare/cell-verdict.js';

export const ICON = {
  pass: '✅',
  improvement: '🟢',
  regression: '❌',
  inconclusive: '⚠️',
  'input-error': '🛑',
  'infra-error': '💥',
  'no-baseline': '❔',
};

// A first look awaiting its confirmation round is inconclusive in the verdict (never a
// pass), but it is pending, not a cell the load or the data failed.
export const PENDING = '⏳';
export const iconOf = (c) => (c.awaiting === 'confirmation' ? PENDING : ICON[c.verdict]);

export function ms(v) {
  if (v === null || v === undefined) return '–';
  return `${msText(v)}ms`;
}

export function delta(m) {
  if (!m || m.ratio === undefined) return '';
  const pct = (m.ratio - 1) * 100;
  return `${pct >= 0 ? '+' : ''}${pct.toFixed(1)}%`;
}

// A change in percent, three significant digits at most (an interval is no finer).
const pct = (ratio) => {
  const x = (ratio - 1) * 100;
  return `${x >= 0 ? '+' : ''}${Math.abs(x) >= 100 ? x.toFixed(0) : Number(x.toPrecision(3))}`;
};

// Δ with its interval where the change is beyond the rule's threshold (a large Δ that
// passed, or one awaiting its round: the interval says how sure it is).
export function deltaWithInterval(m) {
  if (!m || m.ratio === undefined) return '';
  const t = m.threshold;
  const large = t !== undefined && (m.ratio > 1 + t || m.ratio < 1 / (1 + t));
  if (!large || m.ratioLow === undefined || m.ratioHigh === undefined) return delta(m);
  const level = Math.round(100 * (m.intervalLevel ?? 0.9));
  return `${pct(m.ratio)}% (${level}%: ${pct(m.ratioLow)}…${pct(m.ratioHigh)}%)`;
}

// A metric as its deciding round saw it: a confirmed test by its fresh runs.
export function decided(m) {
  const c = m?.confirmation;
  if (c?.ratioLow === undefined) return m;
  return { ...m, base: c.base, head: c.head, ratio: c.ratio, ratioLow: c.ratioLow, ratioHigh: c.ratioHigh };
}

export function metric(cell, name) {
  return cell.metrics?.find((m) => m.metric === name);
}
