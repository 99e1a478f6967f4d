// Synthetic route-fault PRs (seeded): a duet cell whose runs each carry `edits` route
// edits, read through the real path (events → ingest/route-cost.js → result/load.js), so
// the gate sees what it sees on kind. A run's propagation times are log-normal around
// `medianMs` × a run level (run-to-run: the controller's sync loop, the node's load),
// independent between the two sides of a pair: each release has its own sync loop.
import { routeCost } from '../../src/ingest/route-cost.js';
import { routesRep } from '../../src/result/load.js';
import { simRep } from './pr-sim.js';
import { rng } from './synthetic.js';

export const ROUTES = Object.freeze({ medianMs: 300, editSd: 0.6, runSd: 0.2 });

export function simulateRoutePr(
  seed,
  {
    pairs = 3,
    edits = 20,
    medianMs = ROUTES.medianMs,
    editSd = ROUTES.editSd,
    runSd = ROUTES.runSd,
    slower = 1,
    errorsPerEdit = 0,
    headErrorsPerEdit = errorsPerEdit,
  } = {},
) {
  const r = rng(seed);
  const normal = () => Math.sqrt(-2 * Math.log(r() || 1e-12)) * Math.cos(2 * Math.PI * r());
  const base = [];
  const head = [];
  for (let i = 0; i < pairs; i++) {
    const run = (isHead) => {
      const level = medianMs * Math.exp(runSd * normal()) * (isHead ? slower : 1);
      const perEdit = isHead ? headErrorsPerEdit : errorsPerEdit;
      const events = [];
      for (let e = 0; e < edits; e++)
        events.push({
          type: 'route-ready',
          route: e,
          side: isHead ? 'head' : 'base',
          propagationMs: Math.round(level * Math.exp(editSd * normal())),
          probes: 20,
          errors: r() < perEdit ? 1 : 0,
        });
      const rep = simRep({
        source: `sim#${i + 1}`,
        percentiles: { p50: 1, p90: 2, p99: 4, 'p99.9': 6, 'p99.99': 8, max: 10 },
        intervals: {},
        requests: 10_000,
        errors: { total: 0, byClass: {} },
        pair: i + 1,
        t: Date.parse('2026-11-26T10:00:00Z') + i * 60_000,
        side: isHead ? 'b' : 'a',
        faults: true,
      });
      return { ...rep, routes: routesRep(routeCost(events), 'sim') };
    };
    base.push(run(false));
    head.push(run(true));
  }
  return [{ cell: 'traefik/default/routes', base, head }];
}
