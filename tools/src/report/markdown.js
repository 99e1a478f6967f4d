// The PR comment body (and job summary): a pure function of the verdict document,
// rendered from templates/comment.md. Everything from files is escaped: cell names
// are restricted by the config schema, but reasons quote paths and tool output.
import { ICON, decided, deltaWithInterval, iconOf, metric, ms, plural } from './format.js';
import { renderTemplate } from './template.js';
import { round, sig } from '../numbers.js';
import { code, md } from './gfm.js';
import { routesTable } from './routes.js';
import { failoverTable } from './failover.js';
import { cpuLine, inUnit } from './cpu.js';
import { oneAtATimeLine } from './one-at-a-time.js';

export { code, md };

export const MARKER = '<!-- tailgate:sticky-comment -->';
// One sticky comment per gate (a workflow may run several: pr and pr-routes). The gate of
// matrix "pr" — every adopter's first — keeps the marker its comments were posted with.
export const markerFor = (gate) => (!gate || gate === 'pr' ? MARKER : `<!-- tailgate:sticky-comment:${gate} -->`);
export const GITHUB_COMMENT_LIMIT = 65_536;
const BUDGET = 60_000; // leave room under GitHub's limit for what the publisher adds

const HEADLINE = {
  pass: 'no regression',
  improvement: 'improvement, no regression',
  regression: 'regression',
  inconclusive: 'inconclusive: the load or the data was not good enough to decide',
  'input-error': "this PR's input is refused: fix it and push again",
  'infra-error': 'infrastructure error: no verdict on the change',
  'no-baseline': 'no baseline to compare with',
};

// lead: markdown shown first, before the context (a duet's change as the data planes see it).
// gate: the gate's name (plan's, from its config and matrix), the matrix's by default.
export function renderMarkdown(doc, { runUrl = null, maxChars = BUDGET, lead = '', gate = doc.matrix } = {}) {
  const cells = doc.cells;
  const compose = (...a) => composeWith({ lead, gate }, ...a);
  let body = compose(doc, cells, 0, runUrl, true);
  // Too long for a comment: drop the folded details and chart, then table rows. The
  // budget is in bytes, as GitHub's limit and the publisher's check are.
  const size = (t) => Buffer.byteLength(t, 'utf8');
  for (let shown = cells.length; size(body) > maxChars; shown = Math.floor(shown * 0.8)) {
    body = compose(doc, cells.slice(0, shown), cells.length - shown, runUrl, false);
    if (shown === 0)
      return Buffer.from(body, 'utf8')
        .subarray(0, maxChars)
        .toString('utf8')
        .replace(/\uFFFD$/, '');
  }
  return body;
}

function composeWith({ lead, gate }, doc, cells, hidden, runUrl, full) {
  const n = doc.cells.length;
  const bad = doc.cells.filter((c) => c.verdict === doc.overall).length;
  const waiting = doc.cells.filter((c) => c.awaiting === 'confirmation').length;
  const headline = doc.pending
    ? `awaiting confirmation — ${waiting} of ${plural(n, 'cell')} run again with fresh pairs; this first look is not the verdict`
    : `${HEADLINE[doc.overall]}${doc.overall === 'pass' || !n ? '' : ` — ${bad} of ${plural(n, 'cell')}`}`;
  return renderTemplate('comment.md', {
    marker: markerFor(gate),
    icon: doc.pending && doc.overall !== 'regression' ? '⏳' : ICON[doc.overall],
    headline,
    next: nextStep(doc, runUrl),
    lead: [gateLead(doc), oneAtATimeLine(doc), lead, cpuLine(cells)]
      .filter(Boolean)
      .map((x) => `${x}\n\n`)
      .join(''),
    context: context(doc),
    table: n ? table(cells, hidden) : '',
    routes: n ? routesTable(cells, { code, arrow }) : '',
    failover: n ? failoverTable(cells, { code }) : '',
    notes: notes(cells),
    chart: full ? chart(doc.cells) : '',
    details: full
      ? details(doc.cells)
      : "_Details left out to stay under GitHub's comment size limit; see the run's artifacts._",
    footer: footer(doc, runUrl),
  }).replace(/\n{3,}/g, '\n\n');
}

// The first screen ends in what to do: a red or grey check is an instruction, not a
// number (a green one needs none).
function nextStep(doc, runUrl) {
  const charts = runUrl ? `[the run's charts](${encodeURI(runUrl)})` : "the run's charts (artifact tailgate-charts)";
  const step = doc.pending
    ? 'wait for the confirmation round (job `gate-confirmed`): its verdict replaces this comment and is the check of record.'
    : {
        regression: `read the cells marked 🔺 below and ${charts}. Intended? Say why in the PR; a maintainer overrides the required check${doc.mode === 'baseline' ? ' or records new baselines (`tailgate baseline update`)' : ''}. In doubt? Re-run the workflow: a real regression fails again, and the cell names its change and interval.`,
        inconclusive:
          're-run the workflow. If it stays inconclusive, the notes below name what kept it from deciding (the load k6 could not deliver, a lost job, the noise).',
        'input-error': 'fix what the notes below name (file, key and rule) and push.',
        'infra-error': "re-run the workflow; if it fails again, the failed step's log names the tool and the command.",
        'no-baseline': 'record a baseline with the command in the notes below, in its own PR.',
      }[doc.overall];
  return step ? `**Next:** ${step}\n\n` : '';
}

// A PR that changes the gate's own rules is judged by its base's; say so first.
function gateLead(doc) {
  const lines = [];
  if (doc.refused) lines.push(`${ICON[doc.overall]} ${md(doc.refused)}`);
  // The design is the base's rule the verdict could not apply: the runs were the head's.
  if (doc.designChange?.length)
    lines.push(
      `⚠️ **This PR changes the gate's design**: ${doc.designChange.slice(0, 4).map(md).join('; ')}. This verdict was made under the head's design, not the base's; the base's applies until this merges — a less sensitive design can pass what the base's would catch.`,
    );
  if (doc.gateChange?.length)
    lines.push(
      `⚠️ **This PR changes the gate's own rules**: ${doc.gateChange.slice(0, 12).map(md).join('; ')}${doc.gateChange.length > 12 ? `; and ${doc.gateChange.length - 12} more` : ''}. They apply after it merges; this verdict uses the base's.`,
    );
  if (doc.gateNote) lines.push(`ℹ️ ${md(doc.gateNote)}.`);
  lines.push(...planLines(doc));
  if (doc.workloadChange?.length)
    lines.push(
      `ℹ️ **This PR changes the workload**: ${doc.workloadChange.slice(0, 12).map(md).join('; ')}. Both sides ran the head's, so this is like with like; baselines recorded before it no longer apply.`,
    );
  return lines.join('\n\n');
}

// The plan of record (compare/accounting.js): what the PR removed and what nobody planned.
function planLines(doc) {
  const cells = (list) =>
    `${list
      .slice(0, 12)
      .map((x) => code(x))
      .join(', ')}${list.length > 12 ? ` and ${list.length - 12} more` : ''}`;
  const lines = [];
  if (doc.removed?.length)
    lines.push(
      `⚠️ **This PR removes ${plural(doc.removed.length, 'cell')} from the gated matrix${doc.matrix ? ` ${code(doc.matrix)}` : ''}**: ${cells(doc.removed.map((r) => r.key))} (${md(doc.removed[0].why)}${doc.removed.length > 1 ? ', …' : ''}). Nothing of them is measured from now on.`,
    );
  if (doc.unplanned?.length)
    lines.push(
      `ℹ️ Results arrived for ${plural(doc.unplanned.length, 'cell')} no plan names: ${cells(doc.unplanned)} — not judged.`,
    );
  return lines;
}

function context(doc) {
  // A duet's verdict carries its data-plane change; a cell that could not be gated has no
  // metrics to tell by.
  const concurrent = doc.cells.some((c) => c.metrics?.some((m) => m.design === 'concurrent'));
  // Cells loaded one side at a time ran interleaved, whatever the run's duet-change says.
  const duet = concurrent || (Boolean(doc.duetChange) && !doc.oneAtATime?.length);
  const how =
    doc.mode !== 'paired'
      ? `Compared with committed baselines${doc.baseRef ? ` read from ${code(doc.baseRef)} (the PR's base)` : ''}.`
      : duet
        ? 'Duet: base and head ran at the same time in one cluster, in front of the same pods, one pair per repetition.'
        : 'Paired mode: base and head ran interleaved on the same runner.';
  if (doc.refused) return 'Nothing was measured.';
  if (doc.overall === 'input-error')
    return 'Nothing was measured: the input was refused before any cluster started (below).';
  if (doc.headAlone)
    return 'The head ran alone: nothing ran for the base (its commit has no bench config), so nothing was compared.';
  const p = doc.procedure;
  if (!p) return how;
  if (!p.blockingTests)
    return `${how} No blocking test could be run: no cell had data good enough to decide (see below), so nothing was shown to be unchanged.`;
  const over =
    p.blockingTests === 1 ? 'over its 1 blocking test' : `over all ${p.blockingTests} blocking tests together`;
  return `${how} Chance that a PR without a real change fails: ≤ ${Math.round(p.alpha * 100)}% ${over}${p.confirmedTests ? ` (${p.confirmedTests} confirmed on fresh runs)` : ''}.`;
}

function table(cells, hidden) {
  // The † note only when some cell has a figure to explain.
  const seen = cells.some((c) => metric(c, 'p99')?.detectable);
  const rows = [
    `| | cell | head p50 | head p99 | Δ p99 | sees p99${seen ? ' ⁽†⁾' : ''} | head p99.99 | Δ p99.99 | errors (base → head) |`,
    '|---|---|--:|--:|--:|--:|--:|--:|--:|',
  ];
  for (const c of cells) {
    const h = c.head ?? {};
    const tail = h.p99_99Reliable === false ? ' ⁽*⁾' : '';
    // A confirmed metric is shown as its fresh runs saw it: the round that decided it.
    const head = (q) => ms(decided(metric(c, q))?.head ?? h[q]);
    rows.push(
      `| ${iconOf(c)} | ${code(c.cell)} | ${head('p50')} | ${head('p99')} | ${arrow(metric(c, 'p99'))} | ${sees(metric(c, 'p99'))}${pairsUsed(c)} | ${head('p99.99')}${tail} | ${arrow(metric(c, 'p99.99'))} | ${c.base ? `${c.base.errors} → ` : ''}${h.errors ?? '–'} |`,
    );
  }
  if (hidden) rows.push(`| | … ${plural(hidden, 'more cell')} in the artifacts | | | | | | | |`);
  if (seen)
    rows.push(
      '',
      `⁽†⁾ the p99 change this cell's noise and the gate's rule (significant, over the threshold, confirmed) catch 80% of the time${cells.some((c) => c.sequential) ? '; "n of ≤ m pairs": the cell ran n pairs, adding pairs up to m only while undecided' : ''}.`,
    );
  return rows.join('\n');
}

// A sequential duet cell (maxRepetitions) says how many pairs it took to decide.
function pairsUsed(c) {
  const s = c.sequential;
  return s ? ` · ${s.pairs} of ≤ ${s.maxPairs} pairs` : '';
}

function sees(m) {
  const r = m?.detectable?.ratio80;
  return r ? `×${Number(r.toPrecision(3))}` : '–';
}

// A regression's interval is in its note below the table; a pass or a pending test beyond
// the threshold carries its own, so a large Δ is never shown bare.
function arrow(metricOf) {
  const m = decided(metricOf);
  if (!m || m.ratio === undefined) return '–';
  const icon = m.status === 'regression' ? ' 🔺' : m.status === 'improvement' ? ' 🔻' : '';
  const text = m.status === 'regression' ? deltaWithInterval({ ...m, threshold: undefined }) : deltaWithInterval(m);
  return `${text}${icon}`;
}

function notes(cells) {
  const lines = [];
  // A reason several cells share (a values file refused before any of them ran) is said
  // once, naming its cells.
  const shared = new Map();
  for (const c of cells)
    if (c.verdict !== 'pass' && c.verdict !== 'improvement' && !c.fix)
      for (const r of c.reasons ?? []) shared.set(r, [...(shared.get(r) ?? []), c.cell]);
  const said = new Set();
  for (const c of cells) {
    if (c.verdict === 'pass' || c.verdict === 'improvement') {
      for (const w of c.warnings ?? []) lines.push(`- ${code(c.cell)}: ⚠️ ${md(w)}`);
      continue;
    }
    for (const r of c.reasons ?? []) {
      const by = shared.get(r) ?? [c.cell];
      if (by.length > 1 && said.has(r)) continue;
      said.add(r);
      const who = by.length > 1 ? `${by.length} cells (${by.map(code).join(', ')})` : code(c.cell);
      lines.push(`- ${who}: ${md(r)}`);
    }
    if (c.fix) lines.push(`  - record one: ${code(c.fix)}`);
  }
  if (cells.some((c) => c.head?.p99_99Reliable === false))
    lines.push('', '⁽*⁾ fewer than 10 samples beyond p99.99: shown, never gated on alone.');
  const s = sensitivity(cells);
  if (s) lines.push('', s);
  return lines.length ? `\n${lines.join('\n')}\n` : '';
}

// A green gate is only as good as what it could have seen: say so when the noise
// hides changes a user would care about.
function sensitivity(cells) {
  const seen = cells.map((c) => ({ c, d: metric(c, 'p99')?.detectable })).filter((x) => x.d);
  if (!seen.length) return '';
  // null: not even ×100 would be caught 80% of the time.
  const size = (d) => d.ratio80 ?? Infinity;
  const worst = seen.reduce((a, b) => (size(b.d) > size(a.d) ? b : a));
  if (size(worst.d) <= 1.5) return '';
  const caught =
    worst.d.ratio80 === null
      ? 'no p99 change up to ×100 would be caught 80% of the time'
      : `a p99 change of about ×${Number(worst.d.ratio80.toPrecision(2))} would be caught 80% of the time`;
  return `_Sensitivity: with this run-to-run noise ${caught} (${code(worst.c.cell)}, the noisiest cell); ×1.5 needs about ${plural(worst.d.runsFor1_5, 'run')} per side (repetitions), or confirmation rounds._`;
}

// Mermaid xychart-beta renders natively on GitHub: no image host needed. One bar
// series, base and head of each cell side by side, the y-axis from 0 so a bar's height
// is its value (a +46% change looks like +46%, not like several times).
function chart(cells) {
  const withData = cells.filter((c) => metric(c, 'p99')?.head !== undefined).slice(0, 12);
  if (!withData.length) return '';
  const labels = withData.flatMap((_, i) => [`"${i + 1} base"`, `"${i + 1} head"`]).join(', ');
  const values = withData.flatMap((c) => [round(metric(c, 'p99').base), round(metric(c, 'p99').head)]);
  const top = Math.max(...values) * 1.1;
  const legend = withData.map((c, i) => `${i + 1} = ${code(c.cell)}`).join(' · ');
  return [
    '<details><summary>p99 by cell, base and head (ms)</summary>',
    '',
    '```mermaid',
    'xychart-beta',
    '  title "p99 latency (ms)"',
    `  x-axis [${labels}]`,
    `  y-axis "ms" 0 --> ${sig(top)}`,
    `  bar [${values.join(', ')}]`,
    '```',
    '',
    legend,
    '',
    '</details>',
  ].join('\n');
}

function details(cells) {
  // Only cells that are not plainly green get their numbers folded out.
  const blocks = cells
    .filter((c) => c.metrics?.length && (c.verdict !== 'pass' || c.warnings?.length))
    .map((c) => {
      const level = Math.round(100 * (c.metrics.find((m) => m.intervalLevel)?.intervalLevel ?? 0.9));
      const rows = [
        `| metric | base | head | ratio (${level}% interval) | p (adjusted for the PR) | status |`,
        '|---|--:|--:|--:|--:|---|',
      ];
      const sig3 = (x) => (x === undefined || x === null ? '–' : sig(x));
      for (const m of c.metrics) {
        if (m.metric === 'errors') {
          for (const g of m.groups ?? [])
            rows.push(
              `| errors: ${g.group} (${m.classes
                .filter((k) => k.group === g.group)
                .map((k) => `${k.class} ${k.base} → ${k.head}`)
                .join(
                  ', ',
                )}) | ${g.base} | ${g.head} | ${g.rateRatio === null ? '–' : `×${sig3(g.rateRatio)}`} | ${g.p ?? '–'} (${g.look === 'pending' ? 'after confirmation' : (g.adjustedP ?? '–')}) | ${g.status} |`,
            );
          if (!m.groups?.length) rows.push(`| errors | ${m.base ?? '–'} | ${m.head ?? '–'} | | | ${m.status} |`);
        } else if (m.status === 'missing') {
          rows.push(`| ${m.metric} | ${ms(m.base)} | ${ms(m.head)} | – | – | missing |`);
        } else {
          // Both looks of a confirmed test, each labelled; an awaited one is not a pass yet.
          const k = m.confirmation;
          const ratio = `×${sig3(m.ratio)} (${sig3(m.ratioLow)}–${sig3(m.ratioHigh)})`;
          const fresh =
            k?.ratioLow === undefined
              ? `×${sig3(k?.ratio)}`
              : `×${sig3(k.ratio)} (${sig3(k.ratioLow)}–${sig3(k.ratioHigh)})`;
          const looks = k ? `first look ${ratio}; ${plural(k.runs, 'fresh run')} ${fresh}` : ratio;
          // A failover test that has not decided is no pass (compare/failover.js).
          const status =
            m.look === 'pending' ? 'awaiting confirmation' : m.status === 'undecided' ? 'not decided' : m.status;
          rows.push(
            `| ${m.metric} | ${inUnit(m, m.base)} | ${inUnit(m, m.head)} | ${looks} | ${m.p ?? '–'} (${m.look === 'pending' ? 'after confirmation' : (m.adjustedP ?? '–')}) | ${status}${m.blocking ? '' : ' (advisory)'} |`,
          );
        }
      }
      const design = c.design?.paired
        ? plural(c.design.pairs, 'pair')
        : `${plural(c.baseReps, 'base run')} vs ${plural(c.headReps, 'head run')}`;
      const said = c.awaiting === 'confirmation' ? 'awaiting confirmation' : c.verdict;
      return `<details><summary>${iconOf(c)} ${md(c.cell)}: ${said} (${design})</summary>\n\n${rows.join('\n')}\n\n</details>`;
    });
  return blocks.join('\n');
}

// The comment explains itself: an adopter's repository has no tailgate README to link to.
const HOW_TO_READ = [
  '<details><summary>How to read this</summary>',
  '',
  "- Each row is one cell (controller / tuning / scenario); latencies are the head's, Δ is head vs base.",
  "- ❌ regression: the change is beyond noise *and* beyond the gate's threshold, decided for the whole PR at once (the chance that a PR without a real change fails is stated above).",
  '- ✅ pass: no regression found. 🟢 improvement: better beyond noise. ⚠️ inconclusive: the load or the data was not good enough to decide (e.g. k6 could not deliver the rate). ⏳ pending: may be a regression; a confirmation round on fresh runs decides, this first look is not the verdict. 🛑 input refused (a values file, bench.yaml): for the PR to fix. 💥 infrastructure error: nothing was measured. ❔ no baseline yet.',
  '- Intervals are for the ratio head / base; "advisory" metrics are shown, never gated on alone.',
  '',
  '</details>',
].join('\n');

function footer(doc, runUrl) {
  const link = runUrl ? `[Run, charts and raw histograms](${encodeURI(runUrl)}) · ` : '';
  return `${HOW_TO_READ}\n\n<sub>${link}exit ${doc.exitCode} · generated by tailgate</sub>`;
}
