// Finds every cell below a folder — one run, or several runs of the same cells
// (paired mode runs base and head one repetition at a time): result.json files (one
// per repetition) and cell-error.json files (a harness failure, an infra-error verdict).
import { readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { InputError } from '../errors.js';
import { readJsonFile, toReps } from './load.js';
import { checkCellKey, checkName } from '../names.js';

export function collectRun(runDir) {
  let entries;
  try {
    entries = walk(runDir);
  } catch (err) {
    throw new InputError(`${runDir}: cannot read results folder (${err.code ?? err.message})`);
  }
  const cells = new Map();
  for (const file of entries) {
    const name = file.split(sep).at(-1);
    if (name !== 'result.json' && name !== 'cell-error.json') continue;
    // …/<controller>/<tuning>/<scenario>/rep-<n>/<file>, at any depth.
    const parts = relative(runDir, file).split(sep);
    if (parts.length < 5 || !/^rep-\d+$/.test(parts.at(-2))) continue;
    const key = checkCellKey(parts.slice(-5, -2).join('/'), relative(runDir, file));
    const cell = cells.get(key) ?? { key, reps: [], errors: [], profile: null };
    if (name === 'result.json') {
      const { reps } = toReps(readJsonFile(file), file);
      cell.reps.push(...reps);
      if (reps[0].meta?.profile === undefined)
        throw new InputError(
          `${file}: meta.profile is missing: the gate needs to know which runner class measured it (ingest with --meta, or tailgate run)`,
        );
      cell.profile ??= checkName(reps[0].meta.profile, `${file}: meta.profile`);
    } else {
      cell.errors.push({ file, ...readJsonFile(file) });
    }
    cells.set(key, cell);
  }
  if (!cells.size)
    throw new InputError(
      `${runDir}: no result.json or cell-error.json found (expected <controller>/<tuning>/<scenario>/rep-<n>/result.json)`,
    );
  return [...cells.values()].sort((a, b) => a.key.localeCompare(b.key));
}

// Symbolic links are not followed: a downloaded artifact must not reach outside itself.
// A run of the largest matrix (10,000 measurements, plan/plan.js) holds about ten files
// per repetition; a folder with far more entries is not a run.
const MAX_ENTRIES = 200_000;

function walk(dir, depth = 0, out = []) {
  if (depth > 12) throw new InputError(`${dir}: results nested deeper than 12 folders`);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (out.length >= MAX_ENTRIES) throw new InputError(`${dir}: more than ${MAX_ENTRIES} files: not a results folder`);
    const p = join(dir, entry.name);
    if (entry.isDirectory()) walk(p, depth + 1, out);
    else if (entry.isFile()) out.push(p);
  }
  return out;
}
