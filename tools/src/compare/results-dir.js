// Finds every cell below a folder — one run, or several runs of the same cells
// (paired mode runs base and head one repetition at a time): result.json files (one
// per repetition) and cell-error.json files (a harness failure, an infra-error verdict).
import { readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { InputError } from '../errors.js';
import { readJsonFile, toReps } from './inputs.js';

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
    const key = parts.slice(-5, -2).join('/');
    const cell = cells.get(key) ?? { key, reps: [], errors: [], profile: null };
    if (name === 'result.json') {
      const { reps } = toReps(readJsonFile(file), file);
      cell.reps.push(...reps);
      cell.profile ??= reps[0].meta?.profile ?? null;
    } else {
      cell.errors.push({ file, ...readJsonFile(file) });
    }
    cells.set(key, cell);
  }
  if (!cells.size) throw new InputError(`${runDir}: no result.json or cell-error.json found (expected <controller>/<tuning>/<scenario>/rep-<n>/result.json)`);
  return [...cells.values()].sort((a, b) => a.key.localeCompare(b.key));
}

function walk(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else out.push(p);
  }
  return out;
}
