// The comment's failover table: per duet cell with pod-kills, its paired failover test
// (compare/failover.js) — which kills hit which side, each kill's exposure and the
// requests it held up on both sides, what the head changed, and what this cell could
// have seen.
import { FAILOVER_METRIC } from '../compare/failover.js';
import { sig } from '../numbers.js';
import { iconOf, metric, ms } from './format.js';

const times = (x) => (Number.isFinite(x) ? `×${sig(x)}` : '–');
const count = (x) => (Number.isFinite(x) ? sig(x) : '–');

// How the two tests became one p-value (compare/failover-flip.js): the smaller at its exact
// level over the kills' sign flips, or, where that was too large to build, each at half.
const levels = (cells) =>
  cells.some((c) => metric(c, FAILOVER_METRIC).combined === 'bonferroni')
    ? 'either at half the level'
    : "the smaller p at its exact level over the kills' sign flips";

/** '' when no cell has a failover test. */
export function failoverTable(cells, { code }) {
  const tested = cells.filter((c) => metric(c, FAILOVER_METRIC));
  if (!tested.length) return '';
  const rows = [
    '| | cell (pod kills) | kills hit: both / base only / head only / neither | exposure per kill, base → head (mean) | held up per kill, base → head | stall, base → head (median) | change (90% interval) | p (adjusted) | status | sees ⁽‡⁾ |',
    '|---|---|--:|--:|--:|--:|--:|--:|---|--:|',
  ];
  for (const c of tested) {
    const m = metric(c, FAILOVER_METRIC);
    const k = m.kills ?? {};
    const change = m.ratio == null ? '–' : `${times(m.ratio)} (${times(m.ratioLow)}–${times(m.ratioHigh)})`;
    const p = m.p == null ? '–' : `${m.p} (${m.look === 'pending' ? 'after confirmation' : (m.adjustedP ?? '–')})`;
    rows.push(
      `| ${iconOf(c)} | ${code(c.cell)} | ${k.both ?? 0} / ${k.baseOnly ?? 0} / ${k.headOnly ?? 0} / ${k.neither ?? 0} | ${ms(m.base)} → ${ms(m.head)} | ${count(m.heldUp?.base)} → ${count(m.heldUp?.head)} | ${ms(m.stall?.base)} → ${ms(m.stall?.head)} | ${change} | ${p} | ${status(m)} | ${times(m.detectable?.ratio80)} |`,
    );
  }
  return [
    '',
    '',
    `**Failover under pod kills** (duet): each kill hits base and head at once. A kill held up a request that waited ${floors(tested)} or more or failed; its exposure runs from the kill to the send of the last of them. Every kill counts: the kills that hit one side only (McNemar) and those that hit both (sign test on the exposure), combined, beside the requests held up kill by kill (sign test), ${levels(tested)}; the change is the mean exposure per kill.`,
    '',
    ...rows,
    '',
    "⁽‡⁾ the exposure change this cell's kills let the test catch 80% of the time (its part on the kills that hit both taken as a z-test at 2/π efficiency on the kills' own spread; significant, over the threshold, confirmed).",
  ].join('\n');
}

function status(m) {
  if (m.status === 'undecided') return `not decided${m.why ? `: ${m.why}` : ` (×${sig(m.ratio)} so far)`}`;
  if (m.why && !m.reliable) return `cannot decide: ${m.why}`;
  const icon = m.status === 'regression' ? ' 🔺' : m.status === 'improvement' ? ' 🔻' : '';
  const said = m.look === 'pending' ? 'awaiting confirmation' : m.status;
  return `${said}${icon}${m.blocking ? '' : ' (advisory)'}`;
}

// The cut, as each cell's test applied it (the rule's floor or the ingest's cut).
function floors(cells) {
  const cuts = [...new Set(cells.map((c) => metric(c, FAILOVER_METRIC).floorMs).filter(Number.isFinite))];
  return cuts.length ? cuts.map((x) => ms(x)).join(' / ') : 'the floor';
}
