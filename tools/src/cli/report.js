import { existsSync, realpathSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { writeTextAtomic } from '../result/write.js';
import { checkName, under } from '../names.js';
import { schemaProblems } from '../schema.js';
import { readJsonFile } from '../result/read.js';
import { readBaseline } from '../compare/baselines.js';
import { collectRun } from '../result/run-dir.js';
import { InputError } from '../errors.js';
import { chartsForCell } from '../report/cell-charts.js';
import { code, renderMarkdown } from '../report/markdown.js';
import { routeLines, routesBlock } from '../report/routes.js';
import { duetDiffText, renderTuningDiffs, tuningDiffs, tuningDiffsMarkdown } from '../report/effective-config.js';
import { migrationMarkdown, migrationTable } from '../report/migration.js';
import { runTable } from '../report/run-table.js';
import { renderTerminal } from '../report/terminal.js';
import { writers } from './json-out.js';

export const summary = 'Render a verdict or a run: terminal table, PR-comment markdown, gnuplot charts, .hgrm';
export const usage = `Usage: tailgate report <verdict.json | run-dir> [--markdown out.md] [--charts dir]
                      [--run-url URL] [--baselines baselines] [--base-ref REF]
                      [--meta meta.json] [--confirm-matrix matrix.json]

  <verdict.json>  from tailgate compare --out: table, markdown comment, charts (base vs head)
  <migration.json> from tailgate compare --migration --results … --out: the candidates table
  <run-dir>       a results folder: cells side by side (no verdict), charts per cell
  --markdown      write the PR comment body here (never over an existing file without --force)
  --charts        write SVG+PNG charts and .hgrm files here, one folder per cell
  --meta          (verdict) the comment artifact's meta.json: overall and exit code, for the commenter
  --confirm-matrix  (verdict) the cells to confirm with fresh runs, as a GitHub Actions matrix
                  {"include":[{controller,tuning,scenario,runs,firstPair}]} ([] when none)`;
export const options = {
  markdown: { type: 'string' },
  charts: { type: 'string' },
  'run-url': { type: 'string' },
  baselines: { type: 'string', default: 'baselines' },
  'base-ref': { type: 'string' },
  meta: { type: 'string' },
  'confirm-matrix': { type: 'string' },
  force: { type: 'boolean', default: false },
};

export function run(opts, positionals, io) {
  const { log } = writers(io);
  if (positionals.length !== 1) throw new InputError(`expected one verdict.json or results folder\n\n${usage}`);
  const input = positionals[0];
  let isDir;
  try {
    isDir = statSync(input).isDirectory();
  } catch {
    throw new InputError(`${input}: no such file or folder`);
  }
  if (isDir) {
    const cells = collectRun(input);
    const table = runTable(cells);
    log(table);
    // What each tuning changed, read from the configs the run captured from the proxies.
    const diffs = tuningDiffs(input, cells);
    if (diffs.length) log(`\n${renderTuningDiffs(diffs)}`);
    const routes = routesBlock(routeLines(cells));
    if (routes) log(routes);
    // No verdict for a bare run: the markdown is its table, for a job summary or a note.
    if (opts.markdown)
      writeTextAtomic(
        opts.markdown,
        `### tailgate run ${code(basename(input))}\n\n\`\`\`\n${table}\n\`\`\`\n${diffs.length ? `\n${tuningDiffsMarkdown(diffs)}` : ''}`,
        { force: opts.force },
      );
    if (opts.charts) for (const c of cells.filter((x) => x.reps.length)) chartsForCell(opts.charts, c.key, c.reps);
    return 0;
  }
  const doc = readJsonFile(input);
  if (doc?.kind === 'tailgate.migration') return migrationReport(doc, input, opts, log);
  if (doc?.kind !== 'tailgate.verdict')
    throw new InputError(
      `${input}: not a verdict (kind ${JSON.stringify(doc?.kind)}); make one with tailgate compare --out`,
    );
  const to = {
    markdown: opts.markdown,
    charts: opts.charts,
    meta: opts.meta,
    confirmMatrix: opts['confirm-matrix'],
    force: opts.force,
  };
  const where = { runUrl: opts['run-url'], baselines: opts.baselines, baseRef: opts['base-ref'] };
  return reportVerdict(doc, to, where, { log, input }).code;
}

/**
 * report as a function: a verdict document (a value: tailgate gate passes compare's, the
 * command line reads a file) -> { code, comment, meta, confirm }, having printed its table
 * through log and written what `to` names (markdown, charts, meta, confirmMatrix; force);
 * comment is the markdown written, null without to.markdown.
 * where: runUrl, the gate's name (its comment's marker and the artifact's meta; the
 * matrix's by default), and the baselines' folder and ref for charts of a baseline verdict.
 * input: the verdict's file, when it came from one (named in errors, never overwritten).
 */
export function reportVerdict(doc, to, where = {}, { log, input = null }) {
  const problems = schemaProblems('verdict', doc);
  if (problems.length)
    throw new InputError(`${input ?? 'the verdict'}: does not match schemas/verdict.schema.json`, {
      details: problems.slice(0, 20).map((p) => `${p.path.join('.') || '(top)'}: ${p.message}`),
    });
  log(renderTerminal(doc));
  let comment = null;
  if (to.markdown) {
    if (input && resolve(to.markdown) === realpathSync(input))
      throw new InputError(`--markdown ${to.markdown} is the input file`);
    comment = renderMarkdown(doc, {
      runUrl: where.runUrl,
      gate: where.gate,
      lead: duetDiffText(doc.duetChange, { markdown: true }),
    });
    writeTextAtomic(to.markdown, comment, { force: to.force });
  }
  if (to.charts) drawVerdictCharts(doc, to.charts, where);
  const meta = commentMeta(doc, where.gate);
  if (to.meta) writeTextAtomic(to.meta, JSON.stringify(meta), { force: to.force });
  const confirm = confirmMatrix(doc);
  if (to.confirmMatrix) writeTextAtomic(to.confirmMatrix, JSON.stringify(confirm), { force: to.force });
  return { code: doc.exitCode, comment, meta, confirm };
}

// What the publisher needs beside the comment: the verdict, which round it is (a first look
// that asked for a round is never published as final), and which gate (its own comment
// and check run).
function commentMeta(doc, gate = doc.matrix) {
  return {
    kind: 'tailgate.comment',
    schemaVersion: 1,
    overall: doc.overall,
    exitCode: doc.exitCode,
    round: doc.round ?? 'first',
    pending: doc.pending === true,
    ...(gate ? { gate } : {}),
  };
}

// Each cell to confirm becomes one bench-cell job that runs the next pairs.
function confirmMatrix(doc) {
  // A cross-talk duet's cell is confirmed as interleaved pairs (gate.yml: not concurrent).
  const include = (doc.confirm ?? []).map(({ cell, runs, interleaved }) => {
    const [controller, tuning, scenario] = cell.split('/');
    return {
      controller,
      tuning,
      scenario,
      runs,
      firstPair: runs + 1,
      ...(interleaved === true ? { interleaved } : {}),
    };
  });
  return { include };
}

// compare --migration --out: the table in the terminal, as Markdown with --markdown.
function migrationReport(doc, input, opts, log) {
  if (!Array.isArray(doc.cells) || typeof doc.from !== 'string')
    throw new InputError(`${input}: not a migration document (cells and from are required)`);
  log(migrationTable(doc));
  if (opts.markdown) writeTextAtomic(opts.markdown, migrationMarkdown(doc), { force: opts.force });
  return doc.exitCode ?? 0;
}

function drawVerdictCharts(doc, chartsDir, where) {
  // The folders a verdict names come from a file: they must lie below the working
  // directory (where the gate ran), never anywhere else on the machine.
  const inside = (dir, field) =>
    dir === undefined || dir === null
      ? null
      : typeof dir === 'string'
        ? under(process.cwd(), dir) && dir
        : checkName(null, field);
  const headDir = inside(doc.runDir, 'runDir') ?? inside(doc.headDir, 'headDir');
  if (!headDir) return;
  const heads = new Map(collectRun(headDir).map((c) => [c.key, c]));
  const baseDir = inside(doc.baseDir, 'baseDir');
  // No base folder (the base commit had no bench config: the head ran alone): head charts only.
  const bases = baseDir && existsSync(baseDir) ? new Map(collectRun(baseDir).map((c) => [c.key, c])) : null;
  for (const cell of doc.cells) {
    const h = heads.get(cell.cell);
    if (!h?.reps.length) continue;
    const baseReps = bases ? (bases.get(cell.cell)?.reps ?? []) : baselineReps(cell, h, where, doc);
    chartsForCell(chartsDir, cell.cell, h.reps, baseReps);
  }
}

// A baseline keeps one merged histogram, not one per repetition.
function baselineReps(cell, head, where, doc) {
  const b = readBaseline({
    dir: where.baselines ?? 'baselines',
    profile: head.profile,
    cellKey: cell.cell,
    baseRef: where.baseRef ?? doc.baseRef ?? undefined,
  });
  return b ? [{ histogram: b.doc.merged.histogram }] : [];
}
