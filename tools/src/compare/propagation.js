// Route propagation as the gate reads it: the quantiles of a run's edit times (a route
// added, changed or removed → the data plane following it; ingest/route-cost.js) are
// tested exactly as latency quantiles are (latency.js: log ratio, pairs, moderated noise,
// the order-statistic interval as the within-run variance), each quantile its own
// family member under Holm, with its own rule (gate.propagation).
//
// A run holds tens of edits, not thousands of requests, so a quantile needs fewer edits
// beyond it to gate on than latency's ten: MIN_EDITS_BEYOND over a side's runs — p50
// needs 6 edits, p90 30, p99 300. Below that its test only warns (unreliable).
import { QUANTILES } from '../result/quantiles.js';
import { EDIT_QUANTILES } from '../result/load.js';

export const MIN_EDITS_BEYOND = 3;
// The quantiles a result keeps of its edits (result/load.js reads them from the histogram).
export const PROPAGATION_QUANTILES = EDIT_QUANTILES;

export const metricName = (q) => `propagation ${q}`;

export function editsNeeded(q) {
  return Math.ceil(MIN_EDITS_BEYOND / (1 - QUANTILES[q] / 100) - 1e-6);
}

export const PROPAGATION = Object.freeze({
  metric: metricName,
  field: (q) => `routes: propagation ${q}`,
  value: (r, q) => r.routes?.quantiles?.[q] ?? (q === 'p50' || q === 'p99' ? r.routes?.propagationMs?.[q] : null),
  interval: (r, q) => r.routes?.intervals?.[q],
  enough: (q, reps) => reps.reduce((a, r) => a + (r.routes?.timedEdits ?? 0), 0) >= editsNeeded(q),
});

/**
 * A cell owes a propagation test when any run of either side edited routes (carries
 * `routes`): then every run must hold its edits' times, or the test is not made and —
 * blocking — the cell is inconclusive (whole-evidence.js). Before, a run without them took
 * the cell out of the test in silence. A cell without route faults has nothing to test.
 */
export function hasPropagation(p) {
  return p.base.length > 0 && p.head.length > 0 && [...p.base, ...p.head].some((r) => r.routes);
}
