// Charts for every cell of a verdict or a run: spectrum (base vs head, histograms
// merged over repetitions), timeline and errors of the first head repetition.
import { makeDirIn, writeFileIn } from '../result/write.js';
import { join } from 'node:path';
import { decode, merge } from '../result/histogram.js';
import { drawErrors, drawSpectrum, drawTimeline } from './charts.js';
import { toHgrm } from './hgrm.js';
import { checkCellKey } from '../names.js';

export function chartsForCell(outDir, key, headReps, baseReps = []) {
  checkCellKey(key, 'chart');
  const dir = join(outDir, key.replaceAll('/', '__'));
  makeDirIn(outDir, dir);
  const head = merge(headReps.map((r) => decode(r.histogram)));
  const series = [{ label: `head (${headReps.length} rep)`, hist: head }];
  if (baseReps.length) {
    const base = merge(baseReps.filter((r) => r.histogram).map((r) => decode(r.histogram)));
    if (base.totalCount) {
      series.unshift({ label: `base (${baseReps.length} rep)`, hist: base });
      writeFileIn(dir, join(dir, 'base.hgrm'), toHgrm(base));
    }
  }
  writeFileIn(dir, join(dir, 'head.hgrm'), toHgrm(head));
  const files = drawSpectrum(dir, series, `${key}: latency by percentile`);
  const first = headReps[0];
  if (first.timeline?.length) {
    files.push(...drawTimeline(dir, first, `${key}: latency over time`));
    files.push(...drawErrors(dir, first, `${key}: errors over time`));
  }
  return files;
}
