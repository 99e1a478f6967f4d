// gnuplot charts (SVG and PNG): the percentile spectrum on a 1/(1-p) axis as the
// HdrHistogram plotter draws it, latency over time with fault events marked, and
// errors over time by class. Data files and the .gp script are kept beside the
// images so a chart can be re-drawn or restyled by hand.
//
// Results come from elsewhere (CI artifacts), so nothing from a file becomes gnuplot
// code: gnuplot runs inside the chart folder and names only fixed file names; numbers
// pass num() (finite, or the file is bad input); strings pass text() (a strict character
// set, quoted). Data reaches gnuplot only through .dat files of numbers.
import { mkdirSync } from 'node:fs';
import { writablePath, writeFileIn } from '../result/write.js';
import { join } from 'node:path';
import { InfraError, InputError } from '../errors.js';
import { check, runSync } from '../exec/run.js';
import { which } from '../exec/tools.js';
import { ERROR_CLASSES } from '../result/error-classes.js';
import { renderTemplate } from './template.js';

const MARKED_EVENTS = new Set(['pod-killed', 'pod-terminating', 'update-applied', 'route-applied']);

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
  out.push([Math.max(n, out.at(-1)?.[0] ?? 1), hist.getValueAtPercentile(100) / 1000]);
  return out;
}

export function drawSpectrum(dir, series, title) {
  mkdirSync(dir, { recursive: true });
  const plots = seriesPlots(
    dir,
    'spectrum',
    series.map((s) => ({ label: s.label, points: spectrumPoints(s.hist) })),
    'lines',
  );
  return draw(dir, 'spectrum', renderTemplate('spectrum.gp', { title: text(title), plots }));
}

// One data file of [x, y] points per series (<prefix>-<i>.dat) and the plot clauses that
// draw them, each series in its own dash type.
function seriesPlots(dir, prefix, series, style, field = 'value') {
  return series
    .map((s, i) => {
      const name = `${prefix}-${i}.dat`;
      writeFileIn(
        dir,
        join(dir, name),
        s.points.map(([x, y]) => `${num(x, field)} ${num(y, field)}`).join('\n') + '\n',
      );
      return `${text(name)} using 1:2 with ${style} lw 2 dt ${i + 1} title ${text(s.label)}`;
    })
    .join(', \\\n  ');
}

export function drawTimeline(dir, result, title) {
  mkdirSync(dir, { recursive: true });
  const row = (r) =>
    [r.t, r.p50, r.p99, r.max, r.requests, r.errors]
      .map((v, i) => (i >= 1 && i <= 3 && v === null ? 'NaN' : num(v, 'timeline')))
      .join(' ');
  writeFileIn(dir, join(dir, 'timeline.dat'), result.timeline.map(row).join('\n') + '\n');
  const arrows = eventArrows(result.events);
  return draw(
    dir,
    'timeline',
    renderTemplate('timeline.gp', { title: text(title), data: text('timeline.dat'), arrows }),
  );
}

export function drawErrors(dir, result, title) {
  mkdirSync(dir, { recursive: true });
  const present = ERROR_CLASSES.filter((c) => result.timeline.some((r) => r.errorsByClass?.[c]));
  writeFileIn(
    dir,
    join(dir, 'errors.dat'),
    result.timeline
      .map((r) => [r.t, ...present.map((c) => r.errorsByClass?.[c] ?? 0)].map((v) => num(v, 'timeline')).join(' '))
      .join('\n') + '\n',
  );
  const plots = present.length
    ? present.map((c, i) => `'errors.dat' using 1:${i + 2} with steps lw 2 title ${text(c)}`).join(', \\\n  ')
    : `'errors.dat' using 1:(0) with lines lw 1 title 'no errors'`;
  return draw(
    dir,
    'errors',
    renderTemplate('errors.gp', {
      title: text(title),
      plots,
      arrows: eventArrows(result.events),
      ytics: countTics(result.timeline.map((r) => r.errors ?? 0)),
    }),
  );
}

// Error counts are whole numbers: whole-number tics, never 0.5 steps. The counts come
// from a file: each passes num() before it can shape the script.
function countTics(counts) {
  const most = Math.max(0, ...counts.map((v) => Number(num(v, 'timeline errors'))));
  return `set ytics ${num(Math.max(1, Math.ceil(most / 8)))}\nset format y '%.0f'`;
}

/** Errors per second of several runs on one plot (migration: `from` and each candidate),
 *  with the fault markers of the first. series: [{label, result}] */
export function drawErrorOverlay(dir, series, title) {
  mkdirSync(dir, { recursive: true });
  const counts = series.map((s) => ({ label: s.label, points: s.result.timeline.map((r) => [r.t, r.errors ?? 0]) }));
  return draw(
    dir,
    'errors',
    renderTemplate('errors.gp', {
      title: text(title),
      plots: seriesPlots(dir, 'errors', counts, 'steps', 'timeline'),
      arrows: eventArrows(series[0]?.result.events),
      ytics: countTics(counts.flatMap((c) => c.points.map(([, y]) => y))),
    }),
  );
}

// Fault markers: kills in the lower half of the plot, endpoint updates in the upper, so a
// kill and the update 1–2 ms later are both visible; route edits (route faults: the moment
// each was applied) across the middle. Where a kind is dense (kill-pause every 500 ms),
// short ticks along the bottom instead of lines that hatch the plot.
const DENSE = 40;
const MARKS = [
  { is: (e) => e.type === 'pod-killed' || e.type === 'pod-terminating', color: '#d62728', dt: 3, band: [0, 0.5] },
  { is: (e) => e.type === 'update-applied', color: '#2ca02c', dt: 2, band: [0.5, 1] },
  { is: (e) => e.type === 'route-applied', color: '#1f77b4', dt: 4, band: [0.25, 0.75] },
];
function eventArrows(events = []) {
  const marked = events.filter((e) => MARKED_EVENTS.has(e.type) && e.t !== null && e.t !== undefined);
  return MARKS.flatMap(({ is, color, dt, band }, k) => {
    let mine = marked.filter(is);
    // A duet's events hold both sides' edits, made at the same moment: one mark each.
    if (mine[0]?.side) mine = mine.filter((e) => e.side === mine[0].side);
    const [from, to] = mine.length > DENSE ? [0.04 * k, 0.04 * (k + 1)] : band;
    return mine
      .slice(0, 600)
      .map(
        (e) =>
          `set arrow from ${num(e.t, 'events[].t')}, graph ${from} to ${num(e.t, 'events[].t')}, graph ${to} nohead lw 1 dt ${dt} lc rgb '${color}'`,
      );
  }).join('\n');
}

/**
 * A cell's history on main (`tailgate history report --png`): p99 and p99.99 per run,
 * change points as dashed verticals. rows: [{p99, p9999}] oldest first (NaN where a run
 * has none); cuts: indexes of the first run after each change point.
 */
export function drawHistory(dir, rows, cuts, title) {
  mkdirSync(dir, { recursive: true });
  const v = (x) => (typeof x === 'number' && Number.isFinite(x) && x > 0 ? num(x, 'history') : 'NaN');
  writeFileIn(
    dir,
    join(dir, 'history.dat'),
    rows.map((r, i) => `${i + 1} ${v(r.p99)} ${v(r.p9999)}`).join('\n') + '\n',
  );
  const arrows = [...new Set(cuts)]
    .slice(0, 200)
    .map(
      (i) =>
        `set arrow from ${num(i + 0.5, 'change point')}, graph 0 to ${num(i + 0.5, 'change point')}, graph 1 nohead lw 2 dt 2 lc rgb '#dc2626'`,
    )
    .join('\n');
  return draw(dir, 'history', renderTemplate('history.gp', { title: text(title), data: text('history.dat'), arrows }));
}

/** A number for a gnuplot script or data file: finite, or the input is bad. */
export function num(v, field = 'value') {
  if (typeof v !== 'number' || !Number.isFinite(v))
    throw new InputError(
      `${field}: expected a finite number for a chart, got ${typeof v === 'number' ? String(v) : typeof v}`,
    );
  return String(v);
}

/** A gnuplot string literal: single-quoted (nothing is interpreted inside but ''), strict characters. */
export function text(s) {
  const clean = String(s)
    .replace(/[^A-Za-z0-9 .,:;/()+×%#=-]/g, '')
    .replace(/_/g, ' ')
    .slice(0, 200);
  return `'${clean.replace(/'/g, "''")}'`;
}

function draw(dir, name, script) {
  const gnuplot = which('gnuplot');
  if (!gnuplot) throw new InfraError('gnuplot not found: apt-get install gnuplot-nox (or run make setup)');
  mkdirSync(dir, { recursive: true });
  const outputs = [];
  for (const [term, ext] of [
    ["svg size 900,500 dynamic enhanced font 'Sans,11' background rgb 'white'", 'svg'],
    ["pngcairo size 900,500 enhanced font 'Sans,10'", 'png'],
  ]) {
    const out = join(dir, `${name}.${ext}`);
    const gp = join(dir, `${name}.${ext}.gp`);
    // Run inside the chart folder: the script names only fixed relative file names;
    // gnuplot's `set output` would follow a link, so none may stand at its name.
    writablePath(out, { root: dir });
    writeFileIn(dir, gp, `set terminal ${term}\nset output '${name}.${ext}'\n${script}`);
    check(runSync([gnuplot, `${name}.${ext}.gp`], { cwd: dir, timeoutMs: 60_000 }), `gnuplot failed on ${gp}`);
    outputs.push(out);
  }
  return outputs;
}
