// The migration decision as one table: rows tuning/scenario, columns the candidates, each
// cell the p99 ratio to `from`, the upper end of its interval and the verdict. Used by
// `compare --migration` and by `report <migration.json> --markdown` (a PR comment or a
// page). Names come from the document: each is checked before it is shown.
import { InputError } from '../errors.js';
import { checkName } from '../names.js';
import { sig } from '../numbers.js';
import { md } from './gfm.js';

const MARK = { 'no-worse': '✅ no worse', worse: '❌ worse', inconclusive: '⚠️ inconclusive' };

export function migrationTable(doc) {
  const byCell = new Map(doc.cells.map((c) => [c.cell, c]));
  if (!doc.table)
    throw new InputError(
      'a migration table needs a one-run comparison (compare --migration --results <run> --from <controller>)',
    );
  const { candidates, rows } = doc.table;
  candidates.forEach((c) => checkName(c, 'migration candidate'));
  const lines = [`| scenario (vs ${checkName(doc.from, 'migration from')}) | ${candidates.join(' | ')} |`];
  lines.push(`|---|${candidates.map(() => '---').join('|')}|`);
  for (const row of rows) {
    row.split('/').forEach((p) => checkName(p, 'migration row'));
    const cols = candidates.map((cand) => {
      const c = byCell.get(`${cand}/${row}`);
      if (!c) return '–';
      const p99 = c.metrics.find((m) => m.metric === 'p99');
      return `${MARK[c.verdict] ?? '?'} ${p99 ? `p99 ×${sig(p99.ratio)} (≤ ×${sig(p99.upper)})` : ''}`.trim();
    });
    lines.push(`| ${row} | ${cols.join(' | ')} |`);
  }
  return lines.join('\n');
}

export function migrationMarkdown(doc) {
  const how =
    'No worse = the upper end of the interval of candidate / from is below 1 + margin, ' +
    'the interval at the level Holm gives each test over every candidate, scenario and metric ' +
    '(90% before that adjustment); inconclusive = more pairs needed.';
  const margins = Object.entries(doc.margins ?? {})
    .map(([m, v]) => `${m} +${v}`)
    .join(', ');
  return `### tailgate migration: no worse than \`${doc.from}\`? ${MARK[doc.overall] ?? ''}\n\n${gapsMarkdown(doc.gaps)}${migrationTable(doc)}\n\n${unmeasuredMarkdown(doc.cells)}_${how} Margins: ${margins}._\n`;
}

// Cells with no comparison (a side refused or not measured): named under the table, with why.
function unmeasuredMarkdown(cells) {
  const un = (cells ?? []).filter((c) => c.unmeasured).slice(0, MAX_GAPS);
  if (!un.length) return '';
  return `**Not measured, so not decided** (the verdict is inconclusive until they are):\n\n${un
    .map(
      (c) =>
        `- \`${checkName(c.cell.split('/')[0], 'migration candidate')}\` ${c.cell
          .split('/')
          .slice(1)
          .map((p) => checkName(p, 'migration row'))
          .join('/')}: ${md((c.reasons ?? [])[0] ?? '')}`,
    )
    .join('\n')}\n\n`;
}

// What the candidate cannot express, above the numbers (plan/knob-gaps.js). The document
// may come from an artifact: every value is escaped, and only so many rows are shown.
const MAX_GAPS = 50;
function gapsMarkdown(gaps) {
  if (!Array.isArray(gaps) || !gaps.length) return '';
  const side = (s) =>
    s?.applied
      ? `sets ${md(s.value)}${s.why ? ` (${md(s.why)})` : ''}`
      : `does not set it${s?.why ? ` (${md(s.why)})` : ''}`;
  const rows = gaps
    .slice(0, MAX_GAPS)
    .map(
      (g) =>
        `| ${md(g.tuning)}${g.candidateTuning !== g.tuning ? ` → ${md(g.candidateTuning)}` : ''} | ${md(g.knob)} = ${md(g.value)} | ${side(g.from)} | ${side(g.candidate)} |`,
    );
  const from = md(gaps[0].from?.controller ?? 'from');
  const to = md(gaps[0].candidate?.controller ?? 'candidate');
  return `**What the candidate cannot express as configured today** (${gaps.length} knob${gaps.length > 1 ? 's' : ''}${gaps.length > MAX_GAPS ? `, the first ${MAX_GAPS} shown` : ''}):\n\n| tuning | knob | ${from} | ${to} |\n|---|---|---|---|\n${rows.join('\n')}\n\n`;
}
