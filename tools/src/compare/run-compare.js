// Whole-run comparisons: every cell of a results folder against its baseline, or
// two results folders (paired base/head, same machine) cell by cell.
import { existsSync } from 'node:fs';
import { gateCells } from './gate.js';
import { readBaseline } from './baselines.js';
import { collectRun } from '../result/run-dir.js';
import { readDuetChange, readOneAtATime, readWorkloadChange } from '../result/duet-change.js';
import { counts, exitCodeFor, overallVerdict } from './overall.js';

// baselineOf: a cell's baseline where another rule than baselinesDir's picks it (this
// machine's own, own-baselines.js); skip: cells not judged at all (their results were just
// recorded as the baselines).
export function compareRunToBaselines({
  runDir,
  gate,
  baselinesDir,
  baseRef,
  allowMachineMismatch,
  confirmDir = null,
  baselineOf = null,
  skip = new Set(),
}) {
  const inputs = [];
  const found = collectRun(runDir).filter((c) => !skip.has(c.key));
  const cells = found.map((c) => {
    if (c.errors.length) return infraCell(c);
    const baseline = baselineOf
      ? baselineOf(c)
      : readBaseline({ dir: baselinesDir, profile: c.profile, cellKey: c.key, baseRef });
    if (!baseline) {
      return {
        cell: c.key,
        verdict: 'no-baseline',
        head: null,
        metrics: [],
        reasons: [`no baseline for profile "${c.profile}" at ${baselinesDir}/${c.profile}/${c.key}.json`],
        fix: `tailgate baseline update --results ${runDir} --cells ${c.key}`,
      };
    }
    const input = { cell: c.key, base: baseline.reps, head: c.reps, baselineFile: baseline.file };
    inputs.push(input);
    return input;
  });
  // Fresh head runs of candidate cells are compared with the same baseline.
  const confirm = confirmDir
    ? new Map(
        collectRun(confirmDir)
          .filter((c) => !c.errors.length)
          .map((c) => [c.key, { base: inputs.find((i) => i.cell === c.key)?.base ?? [], head: c.reps }]),
      )
    : null;
  const gated = gateCells(inputs, gate, { mode: 'baseline', allowMachineMismatch, confirm });
  const decided = cells.map((c) => (inputs.includes(c) ? gated.cells[inputs.indexOf(c)] : c));
  return verdictDoc('baseline', decided, {
    runDir,
    baseRef: baseRef ?? null,
    procedure: gated.procedure,
    confirm: gated.confirm,
    round: gated.round,
  });
}

// record: the base's design of record for the pairs (pairs-of-record.js), or null.
export function comparePairedRuns({
  baseDir,
  headDir,
  gate,
  confirmBaseDir = null,
  confirmHeadDir = null,
  record = null,
}) {
  // No base folder at all (the base commit had no bench config: the head ran alone):
  // every cell has no base, said per cell.
  const base = new Map((existsSync(baseDir) ? collectRun(baseDir) : []).map((c) => [c.key, c]));
  const inputs = [];
  const headCells = collectRun(headDir);
  const headKeys = new Set(headCells.map((h) => h.key));
  // A cell whose head results never arrived is not gated silently.
  const orphans = [...base.keys()]
    .filter((k) => !headKeys.has(k))
    .map((k) => ({
      cell: k,
      verdict: 'inconclusive',
      metrics: [],
      reasons: [
        `no head results for ${k} in ${headDir} (base results exist): the cell was not measured or its artifact is missing`,
      ],
    }));
  const cells = headCells.map((h) => {
    const b = base.get(h.key);
    if (h.errors.length || b?.errors.length) return infraCell(h.errors.length ? h : b);
    if (!b)
      return {
        cell: h.key,
        verdict: 'no-baseline',
        metrics: [],
        reasons: [
          existsSync(baseDir)
            ? `no base results for ${h.key} in ${baseDir}`
            : `nothing ran for the base (no ${baseDir}): the head ran alone, as when the base commit has no bench config`,
        ],
      };
    const input = { cell: h.key, base: b.reps, head: h.reps };
    inputs.push(input);
    return input;
  });
  const gated = gateCells(inputs, gate, {
    mode: 'paired',
    confirm: confirmBaseDir ? pairedRuns(confirmBaseDir, confirmHeadDir) : null,
    record,
  });
  const decided = [...cells.map((c) => (inputs.includes(c) ? gated.cells[inputs.indexOf(c)] : c)), ...orphans];
  const duetChange = readDuetChange(headDir);
  const workloadChange = readWorkloadChange(headDir);
  const oneAtATime = readOneAtATime(headDir);
  return verdictDoc('paired', decided, {
    baseDir,
    headDir,
    procedure: gated.procedure,
    confirm: gated.confirm,
    round: gated.round,
    // An empty change is news too: the head changes nothing in the data plane.
    ...(duetChange ? { duetChange } : {}),
    ...(existsSync(baseDir) ? {} : { headAlone: true }),
    ...(workloadChange ? { workloadChange } : {}),
    ...(oneAtATime ? { oneAtATime } : {}),
  });
}

// Confirmation runs of a paired comparison: cell -> {base, head}, cells on both sides only.
function pairedRuns(baseDir, headDir) {
  const base = new Map(
    collectRun(baseDir)
      .filter((c) => !c.errors.length)
      .map((c) => [c.key, c.reps]),
  );
  const out = new Map();
  for (const h of collectRun(headDir))
    if (!h.errors.length && base.has(h.key)) out.set(h.key, { base: base.get(h.key), head: h.reps });
  return out;
}

/**
 * A verdict with nothing to gate: the head's bench.yaml was refused (input-error, exit 2)
 * or no results arrived at all (infra-error, exit 4). The gate still writes a comment.
 */
export function refusedDoc(mode, overall, reason) {
  return { ...verdictDoc(mode, []), overall, exitCode: exitCodeFor(overall), refused: reason.slice(0, 4000) };
}

export function verdictDoc(mode, cells, extra = {}) {
  const overall = overallVerdict(cells);
  const { confirm = [], round = 'first', ...rest } = extra;
  return {
    schemaVersion: 1,
    kind: 'tailgate.verdict',
    mode,
    overall,
    exitCode: exitCodeFor(overall),
    counts: counts(cells),
    generatedAt: new Date().toISOString(),
    ...rest,
    round,
    // The first look asked for a confirmation round: nothing here is the verdict of record.
    pending: round === 'first' && confirm.length > 0,
    confirm,
    cells,
  };
}

// A harness failure is an infra error; input refused before the run (infra: false) is the
// PR's own error; a cell whose evidence is unusable (a k6 runner died or its output is
// incomplete) is inconclusive.
function infraCell(c) {
  const verdict = c.errors.every((e) => e.inconclusive === true)
    ? 'inconclusive'
    : c.errors.every((e) => e.infra === false)
      ? 'input-error'
      : 'infra-error';
  // A failure shared by cells (input refused before the run, a controller whose setup
  // failed) has the same words in each: the comment says them once.
  const reasons = [...new Set(c.errors.map((e) => e.message))];
  return { cell: c.key, verdict, metrics: [], reasons };
}
