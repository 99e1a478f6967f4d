// Something to look at: one static page (GitHub Pages can serve it) with, per cell, p99,
// p99.99 and the error rate over commits on main, change points marked and linked to the
// commit range, every point linked to its run. Inline SVG, no script and no outside
// resource (a Content-Security-Policy says so): nothing from the store becomes markup
// unescaped.
import { seriesChanges } from './detect.js';

// Drawn in these units and scaled to the page's width (CSS): a 1,400 px window showed
// each chart 440 px wide at a fixed size.
const W = 1200;
const H = 200;
const PAD = { l: 56, r: 12, t: 14, b: 40 };
const DATE_TICKS = 6;

const esc = (s) =>
  String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
const safeUrl = (u) =>
  typeof u === 'string' && /^https:\/\/[\w.-]+(\/[\w./%~:@!$&'()*+,;=?#-]*)?$/.test(u) ? u : null;

const METRICS = [
  { key: 'p99', label: 'p99 (ms)', get: (r) => r.latencyMs?.p99, log: true },
  { key: 'p99.99', label: 'p99.99 (ms)', get: (r) => r.latencyMs?.['p99.99'], log: true },
  { key: 'errors', label: 'error rate (%)', get: (r) => (r.errors?.rate ?? NaN) * 100, log: false },
  {
    key: 'propagation',
    label: 'route propagation p50 (ms)',
    get: (r) => r.propagationMs?.p50,
    log: true,
    routes: true,
  },
];

/**
 * The page for every series of a store: a string of HTML. A series may carry its change
 * points (`changes`, every metric: `history report` computes them once for the page and
 * the job summary); without them they are computed here.
 */
export function historyPage(series, { repoUrl = null, title = 'tailgate: main over time' } = {}) {
  const repo = safeUrl(repoUrl);
  const cells = series.map((s, i) => cellSection(s, i, repo)).join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>${esc(title)}</title>
<style>
body{font:14px system-ui,sans-serif;margin:24px;color:#222}
section{margin:0 0 28px}h2{font-size:16px;margin:0 0 4px}
svg{display:block;margin:6px 0;width:100%;height:auto}.axis{stroke:#999}.tick{stroke:#ddd}.line{fill:none;stroke:#2563eb;stroke-width:1.5}
.level{stroke:#111;stroke-width:2;opacity:.55}
.pt{fill:#2563eb}.cp{stroke:#dc2626;stroke-width:2;stroke-dasharray:4 3}.cp-label{fill:#dc2626;font-size:11px}
text{font-size:11px;fill:#555}
</style></head><body>
<h1>${esc(title)}</h1>
<p>${series.length} cell${series.length === 1 ? '' : 's'}; change points (dashed red) are where a series shifted (<code>tailgate history detect</code>); the dark lines are each stretch's level between them.</p>
${cells}
</body></html>
`;
}

function cellSection(s, i, repo) {
  // Route propagation only for a cell with route faults.
  const charts = METRICS.filter((m) => !m.routes || s.records.some((r) => r.propagationMs))
    .map((m) => chart(s, m, repo))
    .join('\n');
  return `<section id="cell-${i}" data-cell="${esc(s.cell)}"><h2>${esc(s.profile)} · ${esc(s.cell)}</h2>
<p>${s.records.length} runs, ${esc(s.records[0]?.commit?.slice(0, 12) ?? '')} … ${esc(s.records.at(-1)?.commit?.slice(0, 12) ?? '')}</p>
${charts}</section>`;
}

function chart(s, m, repo) {
  const pts = s.records
    .map((r, idx) => ({ r, idx, v: m.get(r) }))
    .filter((p) => Number.isFinite(p.v) && (!m.log || p.v > 0));
  if (pts.length < 2) return `<p>${esc(m.label)}: too few points</p>`;
  const y = (v) => (m.log ? Math.log(v) : v);
  const ys = pts.map((p) => y(p.v));
  let [lo, hi] = [Math.min(...ys), Math.max(...ys)];
  // A rate starts at 0: a series of no errors was drawn on a −1…1 axis.
  if (!m.log) [lo, hi] = [Math.min(0, lo), hi - Math.min(0, lo) < 1e-9 ? Math.min(0, lo) + 1 : hi];
  else if (hi - lo < 1e-9) [lo, hi] = [lo - 1, hi + 1];
  const X = (idx) => PAD.l + ((W - PAD.l - PAD.r) * idx) / Math.max(1, s.records.length - 1);
  const Y = (v) => PAD.t + (H - PAD.t - PAD.b) * (1 - (y(v) - lo) / (hi - lo));
  const path = pts.map((p, k) => `${k ? 'L' : 'M'}${X(p.idx).toFixed(1)},${Y(p.v).toFixed(1)}`).join('');
  const dots = pts
    .map((p) => {
      const dot = `<circle class="pt" cx="${X(p.idx).toFixed(1)}" cy="${Y(p.v).toFixed(1)}" r="2"><title>${esc(p.r.commit?.slice(0, 12))}: ${p.v.toFixed(3)}</title></circle>`;
      const run = safeUrl(p.r.run);
      return run ? `<a href="${esc(run)}">${dot}</a>` : dot;
    })
    .join('');
  const byCommit = new Map(s.records.map((r, idx) => [r.commit, idx]));
  const changes = (s.changes ? s.changes.filter((c) => c.metric === m.key) : seriesChanges(s.records, m.key)).filter(
    (c) => byCommit.has(c.commit),
  );
  const levels = stretches(
    pts,
    changes.map((c) => byCommit.get(c.commit)),
  )
    .map((st) => {
      const level = st.reduce((a, p) => a + y(p.v), 0) / st.length;
      const v = m.log ? Math.exp(level) : level;
      return `<line class="level" x1="${X(st[0].idx).toFixed(1)}" x2="${X(st.at(-1).idx).toFixed(1)}" y1="${Y(v).toFixed(1)}" y2="${Y(v).toFixed(1)}"><title>${esc(`level ${v.toPrecision(3)}`)}</title></line>`;
    })
    .join('');
  const cps = changes
    .map((c) => {
      const x = X(byCommit.get(c.commit)).toFixed(1);
      const label = `${c.ratio ? `×${c.ratio}` : c.direction} ${c.direction}`;
      const href = repo ? `${repo}/compare/${encodeURIComponent(c.previous)}...${encodeURIComponent(c.commit)}` : null;
      const mark = `<g class="change-point" data-commit="${esc(c.commit)}"><line class="cp" x1="${x}" x2="${x}" y1="${PAD.t}" y2="${H - PAD.b}"/><text class="cp-label" x="${x}" y="${PAD.t + 10}" dx="4">${esc(label)}</text><title>${esc(`${c.previous.slice(0, 12)} → ${c.commit.slice(0, 12)}: ${label} (p ${c.p})`)}</title></g>`;
      return href ? `<a href="${esc(href)}">${mark}</a>` : mark;
    })
    .join('');
  const fmt = (v) => (m.log ? Math.exp(v) : v).toPrecision(3);
  return `<svg class="chart" data-metric="${esc(m.key)}" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(`${s.cell} ${m.label}`)}">
<line class="axis" x1="${PAD.l}" x2="${W - PAD.r}" y1="${H - PAD.b}" y2="${H - PAD.b}"/><line class="axis" x1="${PAD.l}" x2="${PAD.l}" y1="${PAD.t}" y2="${H - PAD.b}"/>
<text x="4" y="${PAD.t + 8}">${fmt(hi)}</text><text x="4" y="${H - PAD.b}">${fmt(lo)}</text>${dateAxis(s.records, X)}<text x="${PAD.l}" y="${H - 6}">${esc(m.label)}, ${pts.length} runs</text>
<path class="line" d="${path}"/>${dots}${levels}${cps}</svg>`;
}

// The points between consecutive change points (record indexes where each new stretch starts).
function stretches(pts, starts) {
  const cuts = [...starts].sort((a, b) => a - b);
  const out = [[]];
  for (const p of pts) {
    while (cuts.length && p.idx >= cuts[0]) {
      cuts.shift();
      if (out.at(-1).length) out.push([]);
    }
    out.at(-1).push(p);
  }
  return out.filter((st) => st.length);
}

// A few dates under the x axis (each record's run time), evenly spaced over the runs.
function dateAxis(records, X) {
  const n = records.length;
  const at = [
    ...new Set(
      Array.from({ length: Math.min(DATE_TICKS, n) }, (_, k) =>
        Math.round((k * (n - 1)) / Math.max(1, Math.min(DATE_TICKS, n) - 1)),
      ),
    ),
  ];
  return at
    .map((idx) => {
      const t = records[idx]?.time;
      const day = typeof t === 'string' && /^\d{4}-\d{2}-\d{2}/.test(t) ? t.slice(0, 10) : null;
      if (!day) return '';
      const x = X(idx).toFixed(1);
      const anchor = idx === 0 ? 'start' : idx === n - 1 ? 'end' : 'middle';
      return `<line class="tick" x1="${x}" x2="${x}" y1="${PAD.t}" y2="${H - PAD.b + 4}"/><text class="date" x="${x}" y="${H - PAD.b + 15}" text-anchor="${anchor}">${esc(day)}</text>`;
    })
    .join('');
}
