// What route faults measured, one line per cell (and side): the terminal after a run, a
// report of a run folder. An edit's propagation time runs from the API server accepting
// it to the data plane following it (ingest/route-cost.js); errors are answers on the way
// that were neither the old nor the new behaviour.
import { round } from '../numbers.js';
import { metricName, PROPAGATION_QUANTILES } from '../compare/propagation.js';
import { iconOf, metric, ms as fmtMs, plural } from './format.js';

const ms = (v) => (Number.isFinite(v) ? `${round(v, 0)} ms` : '–');
const VERB = { add: 'added', change: 'changed', remove: 'removed' };

// A result from before edits were kept by kind holds the routes added only.
const editsOf = (routes) =>
  routes.edits ?? {
    add: {
      edits: routes.routes,
      settled: routes.ready,
      p50Ms: routes.propagationMs.p50,
      maxMs: routes.propagationMs.max,
      errors: routes.errorsDuringEdits,
    },
  };

/** Lines for the cells with route measurements ([] when none); `who` names a duet's side. */
export function routeLines(cells, who = '') {
  const out = [];
  for (const c of cells) {
    const carried = c.reps.map((r) => r.carried).filter(Boolean);
    if (carried.length) out.push(carriedLine(c.key, who, carried));
    const reps = c.reps.filter((r) => r.routes);
    if (!reps.length) continue;
    const parts = [];
    for (const kind of Object.keys(VERB)) {
      const of = reps.map((r) => editsOf(r.routes)[kind]).filter(Boolean);
      if (!of.length) continue;
      const sum = (f) => of.reduce((a, e) => a + f(e), 0);
      const p50s = of
        .map((e) => e.p50Ms)
        .filter(Number.isFinite)
        .sort((a, b) => a - b);
      const unfollowed = sum((e) => e.edits - e.settled);
      parts.push(
        `${sum((e) => e.edits)} ${VERB[kind]}${unfollowed ? ` (${unfollowed} not followed)` : ''}: p50 ${ms(p50s.length ? p50s[(p50s.length - 1) >> 1] : null)}, max ${ms(Math.max(...of.map((e) => e.maxMs ?? -Infinity)))}, ${plural(
          sum((e) => e.errors),
          'error',
        )}`,
      );
    }
    out.push(`${c.key}${who ? ` (${who})` : ''}, ${reps.length} rep(s): ${parts.join('; ')}`);
  }
  return out;
}

// `routes: N`: the median over runs of what carrying them took and cost.
function carriedLine(key, who, runs) {
  const med = (f) => {
    const xs = runs
      .map(f)
      .filter(Number.isFinite)
      .sort((a, b) => a - b);
    return xs.length ? xs[(xs.length - 1) >> 1] : null;
  };
  const s = (v) => (Number.isFinite(v) ? `${round(v / 1000, 1)} s` : '–');
  const n = (v, unit) => (Number.isFinite(v) ? `${round(v, 2)} ${unit}` : '–');
  const cpu = n(
    med((r) => r.cpuSeconds),
    's',
  );
  const cpu100 = n(
    med((r) => r.per100Routes.cpuSeconds),
    's',
  );
  const rss = (k) =>
    n(
      med((r) => r.rssMiB[k]),
      'MiB',
    );
  return `${key}${who ? ` (${who})` : ''}, ${plural(runs.length, 'rep')}: ${runs[0].routes} routes carried, all answering after ${s(med((r) => r.allAnsweredMs))} (applied in ${s(med((r) => r.appliedMs))}); controller CPU ${cpu} (${cpu100} per 100 routes), RSS ${rss('before')} before, ${rss('after')} after`;
}

/** The block the terminal shows for those lines ('' when there are none). */
export function routesBlock(lines) {
  return lines.length
    ? `\nRoutes (carried before the load; edits under load — propagation: API server accepted → the data plane follows):\n${lines.map((l) => `  ${l}`).join('\n')}`
    : '';
}

/** The comment's route table: per cell that edited routes, its propagation tests and route errors ('' when none). */
export function routesTable(cells, { code, arrow }) {
  const routed = cells.filter((c) => PROPAGATION_QUANTILES.some((q) => metric(c, metricName(q))));
  if (!routed.length) return '';
  const rows = [
    '| | cell (route edits) | base → head p50 | Δ p50 | base → head p90 | Δ p90 | route errors (base → head) |',
    '|---|---|--:|--:|--:|--:|--:|',
  ];
  for (const c of routed) {
    const q = (name) => metric(c, metricName(name));
    const pair = (m) => (m ? `${fmtMs(m.base)} → ${fmtMs(m.head)}` : '–');
    const errs = metric(c, 'errors')?.classes?.find((k) => k.class === 'route');
    rows.push(
      `| ${iconOf(c)} | ${code(c.cell)} | ${pair(q('p50'))} | ${arrow(q('p50'))} | ${pair(q('p90'))} | ${arrow(q('p90'))} | ${errs ? `${errs.base} → ${errs.head}` : '0 → 0'} |`,
    );
  }
  return [
    '**Routes under load**: how long the data plane took to follow a route added, changed or removed (API server accepted → first answer showing it), per edit.',
    '',
    ...rows,
  ].join('\n');
}
