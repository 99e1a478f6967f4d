// Results are evidence: written whole (temp file + rename) and never replaced
// unless the caller says --force.
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { InputError } from '../errors.js';

export function writeJsonAtomic(file, value, { force = false } = {}) {
  if (!force && existsSync(file)) {
    throw new InputError(`${file} already exists; results are never overwritten (pass --force to replace it, or choose another --out)`);
  }
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}`;
  writeFileSync(tmp, `${JSON.stringify(value, null, 1)}\n`);
  renameSync(tmp, file);
}
