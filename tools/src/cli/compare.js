import { existsSync } from 'node:fs';
import { loadBench } from '../config/load.js';
import { applyDefaults } from '../config/defaults.js';
import { gateCells } from '../compare/gate.js';
import { readJsonFile, toReps } from '../result/load.js';
import { comparePairedRuns, compareRunToBaselines, refusedDoc, verdictDoc } from '../compare/run-compare.js';
import { InputError } from '../errors.js';
import { baseGate } from '../compare/base-policy.js';
import { planMatrix } from '../plan/plan.js';
import { planOfRecord } from '../plan/of-record.js';
import { accountFor } from '../compare/accounting.js';
import {
  chartRows,
  migrationDoc,
  migrationFromDirs,
  migrationFromRun,
  migrationLines,
  parseMargins,
} from '../compare/migration.js';
import { list } from './options.js';
import { jsonOption, withJson } from './json-out.js';
import { writeJsonAtomic, writeTextAtomic } from '../result/write.js';
import { renderTerminal } from '../report/terminal.js';
import { migrationCharts } from '../report/migration-charts.js';
import { migrationMarkdown, migrationTable } from '../report/migration.js';

export const summary = 'Gate: head results vs baselines, or paired base vs head; writes verdict.json';
export const usage = `Usage:
  tailgate compare --baseline <file> [--baseline <file>...] <head-result.json>...
  tailgate compare --paired --base <file>... --head <file>...
  tailgate compare --results <run-dir> [--baselines baselines] [--base-ref <git-ref>]
  tailgate compare --paired --base-results <run-dir> --head-results <run-dir>
     [--confirm-base-results <run-dir> --confirm-head-results <run-dir>]
  tailgate compare --results <run-dir> [--confirm-results <run-dir>] ...
  tailgate compare --migration --base-results <from-dir> --head-results <candidate-dir>
                   [--margin p99=10%,p99.99=25%,errors=10%]
  tailgate compare --migration --results <run-dir> --from <controller> [--to a,b] [--markdown out.md]
                   [--charts dir]   (spectrum and error overlays per scenario)
     is the candidate no worse than the current controller (non-inferiority)? With
     --results: every other controller of one run against --from, cells matched by
     tuning and scenario, one table with the candidates as columns
     exit 0 no worse everywhere · 1 worse somewhere · 3 not decided yet (more pairs)

  A PR's false-fail rate is controlled over all its cells and metrics together. A cell
  whose change is suspicious but not yet certain is listed in verdict.json "confirm":
  run it again (fresh pairs, same count) and pass those results with --confirm-*; it
  fails only if the fresh runs confirm it.

  --baseline   a baseline file, or result files of the base (repeat for repetitions)
  --base-ref   read baselines from this commit (the PR's base), never the working tree;
               its bench.yaml's gate applies too (as --gate-ref)
  --gate-ref   apply the gate (thresholds, blocking quantiles, assumed noise, confidence,
               validity) of bench.yaml at this commit, not the working tree's: a PR cannot
               loosen the rules it is judged by; what it changes is listed in the verdict
  --config     bench.yaml whose gate policy applies (default: bench.yaml if present)
  --matrix     apply this matrix's gate (its own rules laid over the top-level gate)
  --out        write the verdict JSON here (never overwritten without --force)
  --allow-machine-mismatch  compare results from different machine fingerprints
  --json       stdout is the verdict document (what --out writes; with --migration the
               migration document) and nothing else: the table goes to stderr

Exit 3 also when there is no baseline, or cells await their confirmation round.`;
export const options = {
  config: { type: 'string', default: process.env.TAILGATE_CONFIG },
  matrix: { type: 'string' },
  baseline: { type: 'string', multiple: true },
  paired: { type: 'boolean', default: false },
  base: { type: 'string', multiple: true },
  head: { type: 'string', multiple: true },
  results: { type: 'string' },
  baselines: { type: 'string', default: 'baselines' },
  'base-ref': { type: 'string' },
  'gate-ref': { type: 'string' },
  'base-results': { type: 'string' },
  'head-results': { type: 'string' },
  'confirm-results': { type: 'string' },
  'confirm-base-results': { type: 'string' },
  'confirm-head-results': { type: 'string' },
  'confirm-base': { type: 'string', multiple: true },
  'confirm-head': { type: 'string', multiple: true },
  migration: { type: 'boolean', default: false },
  from: { type: 'string' },
  to: { type: 'string' },
  markdown: { type: 'string' },
  charts: { type: 'string' },
  margin: { type: 'string' },
  out: { type: 'string' },
  force: { type: 'boolean', default: false },
  'allow-machine-mismatch': { type: 'boolean', default: false },
  ...jsonOption,
};

// Non-inferiority of a candidate against `from`, cell by cell (compare/migration.js).
function migration(opts, gate, log) {
  const oneRun = Boolean(opts.results);
  if (oneRun ? !opts.from : !opts['base-results'] || !opts['head-results'])
    throw new InputError(
      '--migration needs --results <run-dir> --from <controller>, or --base-results <from> and --head-results <candidate>',
    );
  const margins = parseMargins(list(opts.margin, 'margin'));
  const { inputs, unmeasured } = oneRun
    ? migrationFromRun(opts.results, opts.from, list(opts.to, 'to'))
    : migrationFromDirs(opts['base-results'], opts['head-results']);
  const doc = migrationDoc({
    inputs,
    unmeasured,
    gate,
    margins,
    from: oneRun ? opts.from : opts['base-results'],
    candidate: oneRun ? null : opts['head-results'],
    table: oneRun,
  });
  if (opts.out) writeJsonAtomic(opts.out, doc, { force: opts.force });
  log(migrationLines(doc).join('\n'));
  if (oneRun) {
    log(`\n${migrationTable(doc)}`);
    if (opts.charts) migrationCharts(opts.charts, chartRows(inputs, opts.from));
    if (opts.markdown) writeTextAtomic(opts.markdown, migrationMarkdown(doc), { force: opts.force });
  }
  log(`\nmigration verdict: ${doc.overall.toUpperCase()} (${doc.candidate} vs ${doc.from}) — exit ${doc.exitCode}`);
  return { code: doc.exitCode, doc };
}

// What a gate reads, for the error that says it found none.
const LAYOUT = {
  baseline: '<results>/<controller>/<tuning>/<scenario>/rep-<n>/result.json (tailgate run --out <results>)',
  paired:
    '<results>/base/… and <results>/head/…, each <controller>/<tuning>/<scenario>/rep-<n>/result.json (tailgate run --sides-out <results>, or paired-cell.sh)',
};

export function gatePolicy(configFile, matrix) {
  return policy(configFile, matrix).gate;
}

// The gate, and with --matrix the head's config and its plan of the matrix, made once: the
// plan of record adds the base's cells to it once the base is read.
function policy(configFile, matrix) {
  const file = configFile ?? (existsSync('bench.yaml') ? 'bench.yaml' : null);
  if (!file) {
    if (matrix) throw new InputError(`--matrix ${matrix}: no bench.yaml here; pass --config`);
    return { gate: applyDefaults({ controllers: {}, scenarios: {}, matrices: {} }).gate, cfg: null, file };
  }
  const cfg = loadBench(file);
  if (!matrix) return { gate: cfg.gate, cfg: null, file };
  const plan = planMatrix(cfg, matrix);
  return { gate: plan.matrix.gate, cfg, file, plan };
}

export function run(opts, positionals, io) {
  return withJson(opts.json, io, (out) => verdict(opts, positionals, out));
}

/**
 * compare as a function: `opts` are compare's options as values (tailgate gate passes
 * them, never a command line) -> { code, doc: the verdict document }, having written
 * --out and printed the table for people through io.log (a refusal through io.err).
 */
export function verdict(opts, positionals, { log, err: warn }) {
  const gating = Boolean(opts.out && (opts.results || opts['head-results']));
  const gateMode = opts.results ? 'baseline' : 'paired';
  let head;
  try {
    head = policy(opts.config, opts.matrix);
  } catch (err) {
    // The PR gate (--out with results folders): a head bench.yaml that does not load is
    // the PR's own error, and the PR hears it in the comment rather than nothing.
    if (!gating || !(err instanceof InputError)) throw err;
    return refused(opts, refusedDoc(gateMode, 'input-error', [err.message, ...err.details].join(' · ')), warn);
  }
  const { gate: headGate, cfg, file, plan } = head;
  // No results at all (every bench job failed before writing any): an infrastructure
  // error the comment names, never a missing comment.
  const headFolder = opts.results ?? opts['head-results'];
  if (gating && !existsSync(headFolder))
    return refused(
      opts,
      refusedDoc(
        gateMode,
        'infra-error',
        `no results arrived (${headFolder}): the bench jobs wrote none — see their logs. Expected ${LAYOUT[gateMode]}`,
      ),
      warn,
    );
  const gateRef = opts['gate-ref'] ?? opts['base-ref'];
  const fromBase =
    gateRef !== undefined && !opts.migration
      ? baseGate({
          ref: gateRef,
          configFile: file ?? 'bench.yaml',
          matrix: opts.matrix,
          headGate,
          headMatrix: cfg?.matrices?.[opts.matrix] ?? null,
          flag: opts['gate-ref'] !== undefined ? '--gate-ref' : '--base-ref',
        })
      : null;
  const gate = fromBase?.gate ?? headGate;
  if (opts.migration) return migration(opts, gate, log);
  const folders = Boolean(opts.results || (opts.paired && (opts['base-results'] || opts['head-results'])));
  let doc = opts.results
    ? againstBaselines(opts, gate)
    : folders
      ? pairedFolders(opts, gate, fromBase?.record ?? null)
      : fromFiles(opts, positionals, gate);
  // With the matrix known, the verdict is over the plan of record: the base's cells and
  // the head's, each accounted for (compare/accounting.js) — in every mode.
  if (cfg && folders) doc = accountFor(doc, planOfRecord(cfg, opts.matrix, { base: fromBase?.base, plan }));
  // Which gate this is: a workflow may run several, each with its own comment and check.
  if (opts.matrix) doc.matrix = opts.matrix;
  if (fromBase) {
    doc.gateRef = gateRef;
    if (fromBase.changes.length) doc.gateChange = fromBase.changes;
    if (fromBase.designChange.length) doc.designChange = fromBase.designChange;
    if (fromBase.note) doc.gateNote = fromBase.note;
  }
  if (opts.out) writeJsonAtomic(opts.out, doc, { force: opts.force });
  log(renderTerminal(doc));
  return { code: doc.exitCode, doc };
}

// Mode 1: a run folder against the committed baselines (a PR's baseline gate, make bench).
function againstBaselines(opts, gate) {
  return compareRunToBaselines({
    runDir: opts.results,
    gate,
    baselinesDir: opts.baselines,
    baseRef: opts['base-ref'],
    allowMachineMismatch: opts['allow-machine-mismatch'],
    confirmDir: opts['confirm-results'] ?? null,
  });
}

// Mode 2: base and head folders from one runner, matched by pair; record: the base's
// design for the pairs (compare/pairs-of-record.js), known with --gate-ref and --matrix.
function pairedFolders(opts, gate, record) {
  if (!opts['base-results'] || !opts['head-results'])
    throw new InputError('--paired with folders needs both --base-results and --head-results');
  if (Boolean(opts['confirm-base-results']) !== Boolean(opts['confirm-head-results']))
    throw new InputError('--confirm-base-results and --confirm-head-results go together');
  return comparePairedRuns({
    baseDir: opts['base-results'],
    headDir: opts['head-results'],
    gate,
    confirmBaseDir: opts['confirm-base-results'] ?? null,
    confirmHeadDir: opts['confirm-head-results'] ?? null,
    record,
  });
}

// Mode 3: result or baseline files named one by one, one cell (baseline or --paired).
function fromFiles(opts, positionals, gate) {
  const baseFiles = opts.paired ? opts.base : opts.baseline;
  const headFiles = opts.paired ? opts.head : positionals;
  if (!baseFiles?.length || !headFiles?.length)
    throw new InputError(`nothing to compare: need base and head files\n\n${usage}`);
  const read = (files) => (files ?? []).flatMap((f) => toReps(readJsonFile(f), f).reps);
  const base = read(baseFiles);
  const head = read(headFiles);
  const cell = head[0].meta?.controller?.name
    ? `${head[0].meta.controller.name}/${head[0].meta.tuning?.name}/${head[0].meta.scenario?.name}`
    : 'unnamed/default/cell';
  const mode = opts.paired ? 'paired' : 'baseline';
  const confirm = opts['confirm-head']?.length
    ? new Map([
        [
          cell,
          { base: opts['confirm-base']?.length ? read(opts['confirm-base']) : base, head: read(opts['confirm-head']) },
        ],
      ])
    : null;
  const gated = gateCells([{ cell, base, head }], gate, {
    mode,
    allowMachineMismatch: opts['allow-machine-mismatch'],
    confirm,
  });
  return verdictDoc(mode, gated.cells, { procedure: gated.procedure, confirm: gated.confirm, round: gated.round });
}

function refused(opts, doc, warn) {
  if (opts.matrix) doc.matrix = opts.matrix;
  writeJsonAtomic(opts.out, doc, { force: opts.force });
  warn(`tailgate compare: ${doc.refused}`);
  return { code: doc.exitCode, doc };
}
