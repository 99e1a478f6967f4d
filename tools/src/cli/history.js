import { appendRecord, historyRecord, readStore } from '../history/store.js';
import { BRANCH_FOLDERS, branchProblems } from '../history/branch.js';
import { chainLength, chainProblems } from '../history/chain.js';
import { DETECT_DEFAULTS, HISTORY_METRICS, seriesChanges } from '../history/detect.js';
import { collectRun } from '../result/run-dir.js';
import { InputError } from '../errors.js';
import { makeDirIn, writeJsonAtomic } from '../result/write.js';
import { list } from './options.js';
import { historyPage } from '../history/page.js';
import { changesMarkdown } from '../history/issue.js';
import { code, md } from '../report/gfm.js';
import { writeTextAtomic } from '../result/write.js';
import { dirname, join, resolve } from 'node:path';
import { drawHistory } from '../report/charts.js';
import { didYouMean } from '../nearest.js';

export const summary = 'history append | detect | report | check: main over time, and the commits where a cell shifted';
export const usage = `Usage:
  tailgate history append --results <run-dir> --commit <sha> [--store history] [--run-url URL]
  tailgate history detect [--store history] [--metrics p99,p99.99,errors,propagation] [--p-value 0.0001]
                          [--min-size 5] [--out changes.json] [--markdown cite.md] [--repo-url URL]
  tailgate history report [--store history] --site <dir> [--repo-url https://github.com/o/r]
                          [--png] [--pages-url https://o.github.io/r]
  tailgate history check --worktree <dir> [--since <sha>]

append: one record per cell of the run (commit, time, profile, machine, the workload's
identity, p50/p99/p99.9/p99.99 with intervals, errors by class, dropped iterations, cost
per fault, CPU per 1,000 requests) appended to <store>/<profile>/<controller>/<tuning>/
<scenario>.jsonl. Cells that failed are skipped, named.

detect: change points per cell and metric (E-Divisive means + Welch t-test, as Apache
Otava): the commit range each shift lies in, its size and direction. Exit 0 when none is
worse, 1 when a shift for the worse was found (for a nightly job to act on). --markdown:
the latest shift per cell and metric as a table (a baseline-refresh PR cites it).

report: <site>/index.html, one static page (GitHub Pages can serve it): per cell p99,
p99.99 and the error rate over commits, change points marked and linked to the commit
range, every point linked to its run. --png: also gnuplot charts per cell
(<site>/png/cell-<n>/history.{png,svg}) and <site>/summary.md for a job summary — the
change points as a table, the charts as images where --pages-url says where the site is
served.

check: the history branch's rules where it is checked out in <dir> (its history/ and
site/): regular files only — a symbolic link, tracked or on disk, is refused — and
append-only, whole — every commit of the branch since --since (the last verified point,
which the tip must descend from: else non-fast-forward, refused), or since its first
commit, only added lines to the store (a commit that removed or changed one is refused
naming the commit and the record; a merge is refused), and so does the worktree since the
branch's last commit. Exit 2 naming them. tools/ci/history.sh runs it before it appends
(nothing is written through a link, nothing built on a rewritten past) and after.`;
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
  markdown: { type: 'string' },
  png: { type: 'boolean', default: false },
  'pages-url': { type: 'string' },
  force: { type: 'boolean', default: false },
  worktree: { type: 'string' },
  since: { type: 'string' },
};

export function run(opts, positionals) {
  const sub = positionals[0];
  if (sub === 'append') return append(opts);
  if (sub === 'detect') return detect(opts);
  if (sub === 'report') return report(opts);
  if (sub === 'check') return checkBranch(opts);
  throw new InputError(
    `expected "history append", "history detect", "history report" or "history check", got ${JSON.stringify(sub ?? '')}${sub ? didYouMean(sub, ['append', 'detect', 'report', 'check']) : ''}\n\n${usage}`,
  );
}

function append(opts) {
  if (!opts.results || !opts.commit)
    throw new InputError('history append needs --results <run-dir> and --commit <sha>');
  const cells = collectRun(opts.results);
  for (const c of cells.filter((x) => x.errors.length || !x.reps.length))
    console.log(`${c.key}: not recorded (the cell failed in this run)`);
  for (const c of cells.filter((x) => !x.errors.length && x.reps.length)) {
    const { file, appended } = appendRecord(
      opts.store,
      historyRecord(c, { commit: opts.commit, runUrl: opts['run-url'] }),
    );
    console.log(
      appended ? `${c.key}: appended to ${file}` : `${c.key}: already in ${file} (the same run): not appended again`,
    );
  }
  return 0;
}

function detect(opts) {
  const metrics = list(opts.metrics, 'metrics') ?? HISTORY_METRICS;
  for (const m of metrics)
    if (!HISTORY_METRICS.includes(m))
      throw new InputError(
        `--metrics: "${m}" is not one of ${HISTORY_METRICS.join(', ')}${didYouMean(m, HISTORY_METRICS)}`,
      );
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
  if (opts.markdown)
    writeTextAtomic(opts.markdown, changesMarkdown(doc, { repoUrl: opts['repo-url'] }), { force: opts.force });
  return series.some((s) => s.changes.some((c) => c.direction === 'worse')) ? 1 : 0;
}

function report(opts) {
  if (!opts.site) throw new InputError('history report needs --site <dir>');
  // Change points once per series: the page and the job summary show the same ones.
  const series = readStore(opts.store).map((s) => ({
    ...s,
    changes: HISTORY_METRICS.flatMap((m) => seriesChanges(s.records, m, DETECT_DEFAULTS)),
  }));
  makeDirIn(dirname(resolve(opts.site)), opts.site);
  const file = join(opts.site, 'index.html');
  writeTextAtomic(file, historyPage(series, { repoUrl: opts['repo-url'] }), { force: true, root: opts.site });
  console.log(`${file}: ${series.length} cells`);
  if (opts.png) {
    const md = historySummary(series, opts.site, opts['pages-url']);
    writeTextAtomic(join(opts.site, 'summary.md'), md, { force: true, root: opts.site });
    console.log(`${join(opts.site, 'summary.md')}: job summary; charts in ${join(opts.site, 'png')}`);
  }
  return 0;
}

function checkBranch(opts) {
  if (!opts.worktree) throw new InputError('history check needs --worktree <dir> (the history branch checked out)');
  const since = opts.since ?? '';
  const problems = [...chainProblems(opts.worktree, { since }), ...branchProblems(opts.worktree)];
  if (problems.length)
    throw new InputError(`${opts.worktree}: the history branch breaks its rules`, { details: problems });
  const n = chainLength(opts.worktree, { since });
  console.log(
    `${opts.worktree}: ${BRANCH_FOLDERS.join(' and ')} hold regular files only, and the store only grew — ${n} commit(s) ${since ? `since ${since.slice(0, 12)}` : 'since the first'} and the worktree`,
  );
  return 0;
}

// The job summary: each cell's change points in a table, its gnuplot chart beside it
// (an image only where the site is served: a summary cannot show a file of the job).
function historySummary(series, site, pagesUrl) {
  const base = pagesUrl && /^https:\/\/[\w.-]+(\/[\w.~-]+)*\/?$/.test(pagesUrl) ? pagesUrl.replace(/\/$/, '') : null;
  const lines = [
    '### tailgate: main over time',
    '',
    '| cell | runs | change points (p99, p99.99, errors) | chart |',
    '|---|--:|---|---|',
  ];
  series.forEach((s, i) => {
    const { changes } = s;
    const cuts = changes
      .map((c) => s.records.findIndex((r) => r.commit === c.commit && r.time === c.time))
      .filter((x) => x > 0);
    const rows = s.records.map((r) => ({ p99: r.latencyMs?.p99, p9999: r.latencyMs?.['p99.99'] }));
    drawHistory(makeDirIn(site, join(site, 'png', `cell-${i}`)), rows, cuts, `${s.profile} ${s.cell}`);
    const said = changes.length
      ? changes
          .map(
            (c) =>
              `${md(c.metric)} ${fmt(c.before, c.metric)} → ${fmt(c.after, c.metric)} (${md(c.direction)}) at ${code(String(c.commit).slice(0, 12))}`,
          )
          .join('; ')
      : 'none';
    const png = `png/cell-${i}/history.png`;
    const chart = base ? `![${md(s.cell)}](${base}/${png})` : `${code(png)} in the site`;
    lines.push(`| ${code(`${s.profile} ${s.cell}`)} | ${s.records.length} | ${said} | ${chart} |`);
  });
  return `${lines.join('\n')}\n`;
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
