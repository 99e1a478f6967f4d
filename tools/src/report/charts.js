// gnuplot charts (SVG and PNG): the percentile spectrum on a 1/(1-p) axis as the
// HdrHistogram plotter draws it, latency over time with fault events marked, and
// errors over time by class. Data files and the .gp script are kept beside the
// images so a chart can be re-drawn or restyled by hand.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InfraError } from '../errors.js';
import { which } from '../deps.js';
import { ERROR_CLASSES } from '../ingest/classify.js';
import { renderTemplate } from './template.js';

const MARKED_EVENTS = new Set(['pod-killed', 'pod-terminating', 'update-applied']);

/** Points of the spectrum: percentiles 0 .. (1 - 1/n), evenly spaced on log10(1/(1-p)). */
export function spectrumPoints(hist) {
  const n = hist.totalCount;
  const out = [];
  for (let k = 0; k <= 60; k++) {
    const inv = 10 ** (k / 10);
    if (inv > n) break;
    const p = 100 * (1 - 1 / inv);
    out.push([inv, hist.getValueAtPercentile(p) / 1000]);
  }
  out.push([Math.max(n, out.at(-1)?.[0] ?? 1), hist.maxValue / 1000]);
  return out;
}

export function drawSpectrum(dir, series, title) {
  const files = series.map((s, i) => {
    const f = join(dir, `spectrum-${i}.dat`);
    writeFileSync(f, spectrumPoints(s.hist).map(([x, y]) => `${x} ${y}`).join('\n') + '\n');
    return { file: f, label: s.label };
  });
  const plots = files.map((f, i) => `'${f.file}' using 1:2 with lines lw 2 dt ${i + 1} title '${esc(f.label)}'`).join(', \\\n  ');
  return draw(dir, 'spectrum', renderTemplate('spectrum.gp', { title: esc(title), plots }));
}

export function drawTimeline(dir, result, title) {
  const f = join(dir, 'timeline.dat');
  writeFileSync(f, result.timeline.map((r) => `${r.t} ${r.p50 ?? 'NaN'} ${r.p99 ?? 'NaN'} ${r.max ?? 'NaN'} ${r.requests} ${r.errors}`).join('\n') + '\n');
  const arrows = eventArrows(result.events);
  return draw(dir, 'timeline', renderTemplate('timeline.gp', { title: esc(title), data: f, arrows }));
}

export function drawErrors(dir, result, title) {
  const present = ERROR_CLASSES.filter((c) => result.timeline.some((r) => r.errorsByClass?.[c]));
  const f = join(dir, 'errors.dat');
  writeFileSync(f, result.timeline.map((r) => [r.t, ...present.map((c) => r.errorsByClass?.[c] ?? 0)].join(' ')).join('\n') + '\n');
  const plots = present.length
    ? present.map((c, i) => `'${f}' using 1:${i + 2} with steps lw 2 title '${c}'`).join(', \\\n  ')
    : `'${f}' using 1:(0) with lines lw 1 title 'no errors'`;
  return draw(dir, 'errors', renderTemplate('errors.gp', { title: esc(title), plots, arrows: eventArrows(result.events) }));
}

function eventArrows(events = []) {
  return events.filter((e) => MARKED_EVENTS.has(e.type) && e.t !== null).slice(0, 300)
    .map((e) => `set arrow from ${e.t}, graph 0 to ${e.t}, graph 1 nohead lw 1 dt 3 lc rgb '${e.type === 'update-applied' ? '#2ca02c' : '#d62728'}'`).join('\n');
}

function draw(dir, name, script) {
  const gnuplot = which('gnuplot');
  if (!gnuplot) throw new InfraError('gnuplot not found: apt-get install gnuplot-nox (or run make setup)');
  mkdirSync(dir, { recursive: true });
  const outputs = [];
  for (const [term, ext] of [["svg size 900,500 dynamic enhanced font 'Sans,11' background rgb 'white'", 'svg'], ["pngcairo size 900,500 enhanced font 'Sans,10'", 'png']]) {
    const out = join(dir, `${name}.${ext}`);
    const gp = join(dir, `${name}.${ext}.gp`);
    writeFileSync(gp, `set terminal ${term}\nset output '${out}'\n${script}`);
    const r = spawnSync(gnuplot, [gp], { encoding: 'utf8' });
    if (r.status !== 0) throw new InfraError(`gnuplot failed on ${gp}`, { details: r.stderr.trim().split('\n') });
    outputs.push(out);
  }
  return outputs;
}

function esc(s) {
  return String(s).replace(/'/g, '').replace(/_/g, '\\\\_');
}
