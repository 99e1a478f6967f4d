// Charts for a migration question, one folder per tuning/scenario: every candidate's
// latency spectrum over `from`'s (HdrHistogram-style, 1/(1-q) axis; histograms merged
// over repetitions) and the errors per second of their first repetitions, with the
// fault markers of `from`'s run.
import { join } from 'node:path';
import { decode, merge } from '../result/histogram.js';
import { checkName } from '../names.js';
import { drawErrorOverlay, drawSpectrum } from './charts.js';

/** rows: [{row: 'tuning/scenario', from: {name, reps}, candidates: [{name, reps}]}] */
export function migrationCharts(outDir, rows) {
  const files = [];
  for (const { row, from, candidates } of rows) {
    const [tuning, scenario] = row.split('/');
    const dir = join(outDir, `migration__${checkName(tuning, 'tuning')}__${checkName(scenario, 'scenario')}`);
    const all = [from, ...candidates].filter((c) => c.reps.some((r) => r.histogram));
    const series = all.map((c) => ({
      label: `${c.name} (${c.reps.length} rep)`,
      hist: merge(c.reps.filter((r) => r.histogram).map((r) => decode(r.histogram))),
    }));
    files.push(...drawSpectrum(dir, series, `${row}: latency by percentile, vs ${from.name}`));
    const timelines = all.filter((c) => c.reps[0]?.timeline?.length).map((c) => ({ label: c.name, result: c.reps[0] }));
    if (timelines.length)
      files.push(...drawErrorOverlay(dir, timelines, `${row}: errors per second (first repetition)`));
  }
  return files;
}
