// make perf, kind-routes part: routes edited under load on offline kind, as duets
// (tools/perf/kind-routes.bench.yaml). What it measures:
// - each controller's propagation per kind of edit (add, change, remove) over every run
//   of a side: p50, p99, max and the edit count, with the errors on the way and the load's
//   own errors while the routes changed;
// - no-op route PRs (Traefik A/A, 3 pairs each, the next 3 as a confirmation round) and
//   the propagation canary (the head's throttle 2 s → 4 s) as PRs, gated as the PR
//   workflow gates a cell;
// - the sd over pairs of log(head/base) of a run's propagation p50: the noise the gate's
//   simulation (tools/test/helpers/route-sim.js) assumes.
// Needs the offline kind images, as the kind part; skipped with the reason otherwise.
import { join } from 'node:path';
import { ROOT } from '../src/exec/tools.js';
import { variance } from '../src/compare/stats.js';
import { resultRep } from '../src/result/load.js';
import { gateDuetPrs, pairsOf, runMatrix } from './kind-duet-bench.js';

const CONFIG = join(ROOT, 'tools', 'perf', 'kind-routes.bench.yaml');
const SCENARIO = 'routes';

export async function kindRoutesBench() {
  if (process.env.TAILGATE_OFFLINE !== '1' && !process.env.TAILGATE_KIND_PERF)
    return { skipped: 'no offline kind images in this environment (tools/scripts/perf.sh sets them up where built)' };
  const out = {};
  for (const [key, matrix, controller, scenario = SCENARIO] of [
    ['aa', 'routes-aa', 'traefik'],
    ['canary', 'routes-canary', 'traefik'],
    ['changeErrors', 'routes-change-errors', 'traefik', 'routes-alt-errors'],
    ['fast', 'routes-200ms', 'traefik'],
    ['haproxy', 'routes-haproxy', 'haproxy-ingress'],
  ]) {
    const run = runMatrix(matrix, CONFIG);
    const pairs = pairsOf(join(run.dir, 'base'), join(run.dir, 'head'), controller, controller, scenario);
    out[key] = {
      matrix,
      wallS: run.timing.wallS,
      pairs: pairs.length,
      base: editFigures(
        pairs.map(([b]) => b),
        'base',
      ),
      head: editFigures(
        pairs.map(([, h]) => h),
        'head',
      ),
      sdLogP50: sdLogP50(pairs),
      prs: gateDuetPrs(pairs, { cell: `${controller}/default/${scenario}` }),
    };
  }
  return out;
}

// Every edit of a side over all its runs, by kind, from the runs' own events.
export function editFigures(docs, side) {
  const out = {};
  for (const kind of ['add', 'change', 'remove']) {
    const evs = docs.flatMap((d) =>
      (d.events ?? []).filter(
        (e) =>
          (e.type === 'route-ready' || e.type === 'route-not-ready') && e.side === side && (e.edit ?? 'add') === kind,
      ),
    );
    const ms = evs
      .filter((e) => e.type === 'route-ready')
      .map((e) => e.propagationMs)
      .sort((a, b) => a - b);
    const at = (p) => (ms.length ? ms[Math.min(ms.length - 1, Math.ceil(p * ms.length) - 1)] : null);
    out[kind] = {
      edits: evs.length,
      followed: ms.length,
      p50: at(0.5),
      p99: at(0.99),
      max: ms.at(-1) ?? null,
      errors: evs.reduce((a, e) => a + (e.errors ?? 0), 0),
    };
  }
  out.loadErrors = docs.reduce((a, d) => a + d.errors.total, 0);
  out.requests = docs.reduce((a, d) => a + d.requests.total, 0);
  return out;
}

function sdLogP50(pairs) {
  const logs = pairs.map(([b, h], i) => {
    const [rb, rh] = [b, h].map((d) => resultRep(d, `pair ${i + 1}`));
    return Math.log(rh.routes.quantiles.p50 / rb.routes.quantiles.p50);
  });
  return logs.length > 1 ? Number(Math.sqrt(variance(logs)).toFixed(3)) : null;
}
