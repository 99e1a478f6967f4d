// results/<UTC timestamp>/ — one folder per run, never reused: a second run in the
// same second gets a suffix instead of mixing with the first.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

export function newRunDir(base = 'results', now = new Date()) {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  let dir = join(base, stamp);
  for (let i = 2; existsSync(dir); i++) dir = join(base, `${stamp}-${i}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

export function cellDir(runDir, cell) {
  const dir = join(runDir, cell.controllerName, cell.tuningName, cell.scenarioName, `rep-${cell.repetition}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}
