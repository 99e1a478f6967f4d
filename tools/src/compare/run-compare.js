// Whole-run comparisons: every cell of a results folder against its baseline, or
// two results folders (paired base/head, same machine) cell by cell.
import { gateCells } from './gate.js';
import { readBaseline } from './baselines.js';
import { collectRun } from './results-dir.js';
import { counts, exitCodeFor, overallVerdict } from './overall.js';

export function compareRunToBaselines({ runDir, gate, baselinesDir, baseRef, allowMachineMismatch }) {
  const inputs = [];
  const cells = collectRun(runDir).map((c) => {
    if (c.errors.length) return infraCell(c);
    const baseline = readBaseline({ dir: baselinesDir, profile: c.profile, cellKey: c.key, baseRef });
    if (!baseline) {
      return {
        cell: c.key, verdict: 'no-baseline', head: null, metrics: [],
        reasons: [`no baseline for profile "${c.profile}" at ${baselinesDir}/${c.profile}/${c.key}.json`],
        fix: `tailgate baseline update --results ${runDir} --cells ${c.key}`,
      };
    }
    const input = { cell: c.key, base: baseline.reps, head: c.reps, baselineFile: baseline.file };
    inputs.push(input);
    return input;
  });
  const gated = gateCells(inputs, gate, { mode: 'baseline', allowMachineMismatch });
  const decided = cells.map((c) => (inputs.includes(c) ? gated.cells[inputs.indexOf(c)] : c));
  return verdictDoc('baseline', decided, { runDir, baseRef: baseRef ?? null, procedure: gated.procedure });
}

export function comparePairedRuns({ baseDir, headDir, gate }) {
  const base = new Map(collectRun(baseDir).map((c) => [c.key, c]));
  const inputs = [];
  const cells = collectRun(headDir).map((h) => {
    const b = base.get(h.key);
    if (h.errors.length || b?.errors.length) return infraCell(h.errors.length ? h : b);
    if (!b) return { cell: h.key, verdict: 'no-baseline', metrics: [], reasons: [`no base results for ${h.key} in ${baseDir}`] };
    const input = { cell: h.key, base: b.reps, head: h.reps };
    inputs.push(input);
    return input;
  });
  const gated = gateCells(inputs, gate, { mode: 'paired' });
  const decided = cells.map((c) => (inputs.includes(c) ? gated.cells[inputs.indexOf(c)] : c));
  return verdictDoc('paired', decided, { baseDir, headDir, procedure: gated.procedure });
}

export function verdictDoc(mode, cells, extra = {}) {
  const overall = overallVerdict(cells);
  return { schemaVersion: 1, kind: 'tailgate.verdict', mode, overall, exitCode: exitCodeFor(overall), counts: counts(cells), generatedAt: new Date().toISOString(), ...extra, cells };
}

function infraCell(c) {
  return { cell: c.key, verdict: 'infra-error', metrics: [], reasons: c.errors.map((e) => `${e.file}: ${e.message}`) };
}
