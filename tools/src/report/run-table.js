// A run's cells side by side, without any baseline: what `make bench` shows for the
// cross-variant comparison (and what the seeds' tables look like). Latency added by
// the proxy is shown against a `direct` cell of the same scenario when one ran.
import { median } from '../numbers.js';
import { ms } from './format.js';

export function runTable(cells) {
  const direct = new Map(cells.filter((c) => c.key.startsWith('direct/')).map((c) => [c.key.split('/')[2], c]));
  const rows = [
    [
      'cell',
      'reps',
      'requests',
      'p50',
      'p99',
      'p99.9',
      'p99.99',
      'max',
      'errors',
      'by class',
      'dropped',
      'reloads',
      'cpu s/1k req',
      '+p50 vs direct',
      'errors/action',
      'longest hang',
      'stall after action',
    ],
  ];
  for (const c of cells) {
    if (!c.reps.length) {
      rows.push([c.key, '0', '–', '–', '–', '–', '–', '–', '–', 'HARNESS ERROR', '–', '–', '–', '–', '–', '–', '–']);
      continue;
    }
    const med = (f) => median(c.reps.map(f));
    const withResources = c.reps.filter((r) => r.resources);
    const classes = {};
    for (const r of c.reps)
      for (const [k, v] of Object.entries(r.errors.byClass)) if (v) classes[k] = (classes[k] ?? 0) + v;
    const d = direct.get(c.key.split('/')[2]);
    const added =
      d && !c.key.startsWith('direct/')
        ? ms(med((r) => r.percentiles.p50) - median(d.reps.map((r) => r.percentiles.p50)))
        : '';
    rows.push([
      c.key,
      String(c.reps.length),
      String(sum(c.reps, (r) => r.requests.total)),
      ms(med((r) => r.percentiles.p50)),
      ms(med((r) => r.percentiles.p99)),
      ms(med((r) => r.percentiles['p99.9'])),
      `${ms(med((r) => r.percentiles['p99.99']))}${c.reps.every((r) => r.intervals['p99.99'].reliable) ? '' : '*'}`,
      ms(Math.max(...c.reps.map((r) => r.percentiles.max))),
      String(sum(c.reps, (r) => r.errors.total)),
      Object.entries(classes)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ') || '-',
      String(sum(c.reps, (r) => r.load.droppedIterations)),
      // Resources are measured per repetition and may be missing in any of them.
      withResources.some((r) => r.resources.reloads !== undefined)
        ? String(sum(withResources, (r) => r.resources.reloads ?? 0))
        : '–',
      withResources.some((r) => Number.isFinite(r.resources.cpuPer1kRequests))
        ? median(withResources.map((r) => r.resources.cpuPer1kRequests).filter(Number.isFinite)).toFixed(3)
        : '–',
      added,
      // What a fault action cost (ingest/fault-cost.js): the median over repetitions of
      // errors per action, and the longest stall of any repetition.
      ...faultColumns(c.reps),
    ]);
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const line = (r) =>
    r
      .map((v, i) => v.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(rows[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n');
}

function sum(xs, f) {
  return xs.reduce((a, x) => a + (f(x) ?? 0), 0);
}

function faultColumns(reps) {
  const costs = reps.map((r) => r.faultCost).filter(Boolean);
  if (!costs.length) return ['', '', ''];
  const longest = (k) => ms(Math.max(...costs.map((x) => x[k] ?? 0)));
  return [String(median(costs.map((x) => x.errorsPerAction))), longest('longestHangMs'), longest('longestStallMs')];
}
