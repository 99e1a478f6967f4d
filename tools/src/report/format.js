// Number formatting shared by every renderer, so the terminal table, the PR
// comment and the charts never disagree about a value.
import { msText } from '../numbers.js';

export const ICON = {
  pass: '✅',
  improvement: '🟢',
  regression: '❌',
  inconclusive: '⚠️',
  'input-error': '🛑',
  'infra-error': '💥',
  'no-baseline': '❔',
};

export function ms(v) {
  if (v === null || v === undefined) return '–';
  return `${msText(v)}ms`;
}

export function delta(m) {
  if (!m || m.ratio === undefined) return '';
  const pct = (m.ratio - 1) * 100;
  return `${pct >= 0 ? '+' : ''}${pct.toFixed(1)}%`;
}

export function metric(cell, name) {
  return cell.metrics?.find((m) => m.metric === name);
}
