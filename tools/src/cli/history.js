import { appendRecord, historyRecord, readStore } from '../history/store.js';
import { DETECT_DEFAULTS, HISTORY_METRICS, seriesChanges } from '../history/detect.js';
import { collectRun } from '../result/run-dir.js';
import { InputError } from '../errors.js';
import { writeJsonAtomic } from '../result/write.js';
import { list } from './options.js';
import { historyPage } from '../history/page.js';
import { writeTextAtomic } from '../result/write.js';
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';

export const summary = 'history append | detect: main over time, and the commits where a cell shifted';
export const usage = `Usage:
  tailgate history append --results <run-dir> --commit <sha> [--store history] [--run-url URL]
  tailgate history detect [--store history] [--metrics p99,p99.99,errors] [--p-value 0.0001]
                          [--min-size 5] [--out changes.json]
  tailgate history report [--store history] --site <dir> [--repo-url https://github.com/o/r]

append: one record per cell of the run (commit, time, profile, machine, the workload's
identity, p50/p99/p99.9/p99.99 with intervals, errors by class, dropped iterations, cost
per fault, CPU per 1,000 requests) appended to <store>/<profile>/<controller>/<tuning>/
<scenario>.jsonl. Cells that failed are skipped, named.

detect: change points per cell and metric (E-Divisive means + Welch t-test, as Apache
Otava): the commit range each shift lies in, its size and direction. Exit 0 when none is
worse, 1 when a shift for the worse was found (for a nightly job to act on).

report: <site>/index.html, one static page (GitHub Pages can serve it): per cell p99,
p99.99 and the error rate over commits, change points marked and linked to the commit
range, every point linked to its run.`;
export const options = {
  results: { type: 'string' },
  commit: { type: 'string' },
  store: { type: 'string', default: 'history' },
  'run-url': { type: 'string' },
  metrics: { type: 'string' },
  'p-value': { type: 'string' },
  'min-size': { type: 'string' },
  out: { type: 'string' },
  site: { type: 'string' },
  'repo-url': { type: 'string' },
  force: { type: 'boolean', default: false },
};

export function run(opts, positionals) {
  const sub = positionals[0];
  if (sub === 'append') return append(opts);
  if (sub === 'detect') return detect(opts);
  if (sub === 'report') return report(opts);
  throw new InputError(
    `expected "history append", "history detect" or "history report", got ${JSON.stringify(sub ?? '')}\n\n${usage}`,
  );
}

function append(opts) {
  if (!opts.results || !opts.commit)
    throw new InputError('history append needs --results <run-dir> and --commit <sha>');
  const cells = collectRun(opts.results);
  for (const c of cells.filter((x) => x.errors.length || !x.reps.length))
    console.log(`${c.key}: not recorded (the cell failed in this run)`);
  for (const c of cells.filter((x) => !x.errors.length && x.reps.length)) {
    const file = appendRecord(opts.store, historyRecord(c, { commit: opts.commit, runUrl: opts['run-url'] }));
    console.log(`${c.key}: appended to ${file}`);
  }
  return 0;
}

function detect(opts) {
  const metrics = list(opts.metrics, 'metrics') ?? HISTORY_METRICS;
  for (const m of metrics)
    if (!HISTORY_METRICS.includes(m))
      throw new InputError(`--metrics: "${m}" is not one of ${HISTORY_METRICS.join(', ')}`);
  const pValue = number(opts['p-value'], '--p-value', DETECT_DEFAULTS.pValue, 1e-12, 0.5);
  const minSize = Math.round(number(opts['min-size'], '--min-size', DETECT_DEFAULTS.minSize, 2, 1000));
  const series = readStore(opts.store).map((s) => ({
    profile: s.profile,
    cell: s.cell,
    points: s.records.length,
    changes: metrics.flatMap((m) => seriesChanges(s.records, m, { pValue, minSize })),
  }));
  for (const s of series) {
    console.log(
      `${s.profile} ${s.cell}: ${s.points} points, ${s.changes.length || 'no'} change point${s.changes.length === 1 ? '' : 's'}`,
    );
    for (const c of s.changes)
      console.log(
        `  ${c.metric}: ${fmt(c.before, c.metric)} → ${fmt(c.after, c.metric)}${c.ratio ? ` (×${c.ratio})` : ''} ${c.direction}, between ${c.previous.slice(0, 12)} and ${c.commit.slice(0, 12)} (p ${c.p})`,
      );
  }
  const doc = {
    schemaVersion: 1,
    kind: 'tailgate.history-changes',
    generatedAt: new Date().toISOString(),
    pValue,
    minSize,
    series,
  };
  if (opts.out) writeJsonAtomic(opts.out, doc, { force: opts.force });
  return series.some((s) => s.changes.some((c) => c.direction === 'worse')) ? 1 : 0;
}

function report(opts) {
  if (!opts.site) throw new InputError('history report needs --site <dir>');
  const series = readStore(opts.store);
  mkdirSync(opts.site, { recursive: true });
  const file = join(opts.site, 'index.html');
  writeTextAtomic(file, historyPage(series, { repoUrl: opts['repo-url'] }), { force: true });
  console.log(`${file}: ${series.length} cells`);
  return 0;
}

function number(text, flag, dflt, min, max) {
  if (text === undefined) return dflt;
  const x = Number(text);
  if (!Number.isFinite(x) || x < min || x > max)
    throw new InputError(`${flag}: expected a number in [${min}, ${max}], got ${JSON.stringify(text)}`);
  return x;
}

function fmt(v, metric) {
  return metric === 'errors' ? `${(100 * v).toFixed(3)}%` : `${v.toFixed(2)} ms`;
}
