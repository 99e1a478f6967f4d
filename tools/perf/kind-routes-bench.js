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
import { readFileSync } from 'node:fs';
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
  // KIND_ROUTES_PARTS=aa,canary,… runs a subset (about 45 s a pair; the whole file ~75 min).
  const parts = process.env.KIND_ROUTES_PARTS?.split(',');
  const wanted = (key) => !parts || parts.includes(key);
  const out = {};
  for (const [key, matrix, controller, scenario = SCENARIO] of [
    ['aa', 'routes-aa', 'traefik'],
    ['canary', 'routes-canary', 'traefik'],
    ['changeErrors', 'routes-change-errors', 'traefik', 'routes-alt-errors'],
    ['fast', 'routes-200ms', 'traefik'],
    ['haproxy', 'routes-haproxy', 'haproxy-ingress'],
    ['haproxyCanary', 'routes-haproxy-canary', 'haproxy-ingress'],
  ]) {
    if (!wanted(key)) continue;
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
  if (wanted('sweep')) out.sweep = sweep(runMatrix('routes-sweep', CONFIG));
  return out;
}

const SWEEP = [10, 100, 1000];

// Cost per route: per controller and N, what carrying N routes took (every one answering),
// the controller's CPU across it and its RSS after, and the load's p99 with them in place;
// memory per 100 routes is the slope of RSS-after over N (least squares), not one run's
// difference (a collected heap moves by tens of MiB on its own).
export function sweep(run) {
  const out = { wallS: run.timing.wallS };
  for (const controller of ['traefik', 'haproxy-ingress']) {
    const rows = SWEEP.map((n) => {
      const doc = JSON.parse(
        readFileSync(join(run.dir, controller, 'default', `carried-${n}`, 'rep-1', 'result.json'), 'utf8'),
      );
      return {
        routes: n,
        allAnsweredS: doc.carried.allAnsweredMs / 1000,
        appliedS: doc.carried.appliedMs / 1000,
        cpuSeconds: doc.carried.cpuSeconds,
        rssMiBAfter: doc.carried.rssMiB.after,
        p99Ms: doc.latency.percentiles.p99,
        errors: doc.errors.total,
      };
    });
    const slope = (f) => {
      const xs = rows.map((r) => r.routes);
      const ys = rows.map(f);
      const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
      const my = ys.reduce((a, b) => a + b, 0) / ys.length;
      const sxy = xs.reduce((a, x, i) => a + (x - mx) * (ys[i] - my), 0);
      const sxx = xs.reduce((a, x) => a + (x - mx) ** 2, 0);
      return Number(((100 * sxy) / sxx).toFixed(3));
    };
    out[controller] = { rows, per100: { rssMiB: slope((r) => r.rssMiBAfter), cpuSeconds: slope((r) => r.cpuSeconds) } };
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
