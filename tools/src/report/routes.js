// What route faults measured, one line per cell (and side): the terminal after a run, a
// report of a run folder. Propagation is the first 200 after the API server accepted a
// new route; errors are answers that were neither 404 (not routed yet) nor 200.
import { round } from '../numbers.js';

const ms = (v) => (Number.isFinite(v) ? `${round(v, 0)} ms` : '–');

/** Lines for the cells with route measurements ([] when none); `who` names a duet's side. */
export function routeLines(cells, who = '') {
  const out = [];
  for (const c of cells) {
    const reps = c.reps.filter((r) => r.routes);
    if (!reps.length) continue;
    const sum = (f) => reps.reduce((a, r) => a + f(r.routes), 0);
    const worst = (q) => Math.max(...reps.map((r) => r.routes.propagationMs[q] ?? -Infinity));
    const median = (q) => {
      const xs = reps
        .map((r) => r.routes.propagationMs[q])
        .filter(Number.isFinite)
        .sort((a, b) => a - b);
      return xs.length ? xs[(xs.length - 1) >> 1] : null;
    };
    out.push(
      `${c.key}${who ? ` (${who})` : ''}: ${sum((r) => r.routes)} new routes in ${reps.length} rep(s), ${sum((r) => r.notReady)} not ready; propagation p50 ${ms(median('p50'))}, p99 ${ms(median('p99'))}, max ${ms(worst('max'))}; ${sum((r) => r.errorsDuringEdits)} errors while routes were added`,
    );
  }
  return out;
}

/** The block the terminal shows for those lines ('' when there are none). */
export function routesBlock(lines) {
  return lines.length ? `\nNew routes under load (route-add):\n${lines.map((l) => `  ${l}`).join('\n')}` : '';
}
