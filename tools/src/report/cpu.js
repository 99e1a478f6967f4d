// The data plane's CPU per 1,000 requests on the comment's first screen (gate.cpu,
// compare/cpu.js): one line, every cell that measured it, blocking or advisory said.
import { CPU_METRIC } from '../compare/cpu.js';
import { decided, metric } from './format.js';
import { msText, sig } from '../numbers.js';
import { code } from './gfm.js';

const SHOWN = 8;

/** The line, or '' when no cell measured its CPU on both sides. */
export function cpuLine(cells) {
  const rows = cells.map((c) => ({ c, m: decided(metric(c, CPU_METRIC)) })).filter((x) => x.m?.ratio !== undefined);
  if (!rows.length) return '';
  const blocking = rows.some((x) => x.m.blocking);
  const level = Math.round(100 * (rows[0].m.intervalLevel ?? 0.9));
  const one = ({ c, m }) => {
    const mark = m.status === 'regression' ? (m.blocking ? ' 🔺' : ' ⚠️') : m.status === 'improvement' ? ' 🔻' : '';
    const iv = m.ratioLow === undefined ? '' : ` (${level}%: ×${sig(m.ratioLow)}–×${sig(m.ratioHigh)})`;
    return `${code(c.cell)} ${msText(m.base)} → ${msText(m.head)} s, ×${sig(m.ratio)}${iv}${mark}`;
  };
  const more = rows.length > SHOWN ? `; and ${rows.length - SHOWN} more` : '';
  return `**CPU per 1,000 requests** (each side's data plane, ${blocking ? `gated at +${Math.round(100 * rows[0].m.threshold)}%` : 'advisory: gate.cpu blocking: true gates it'}): ${rows.slice(0, SHOWN).map(one).join('; ')}${more}.`;
}

/** A metric's value in its own unit: CPU seconds per 1,000 requests, else ms. */
export function inUnit(m, v) {
  if (v === null || v === undefined) return '–';
  return m.unit ? `${msText(v)} ${m.unit}` : `${msText(v)}ms`;
}
