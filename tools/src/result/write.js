// Results are evidence: written whole (temp file + rename) and never replaced
// unless the caller says --force. Without --force the final name is claimed with a
// hard link, which fails if the name exists — so two writers racing for one --out
// cannot both succeed.
import { existsSync, linkSync, mkdirSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { InputError } from '../errors.js';

export function writeJsonAtomic(file, value, opts = {}) {
  writeTextAtomic(file, `${JSON.stringify(value, null, 1)}\n`, opts);
}

export function writeTextAtomic(file, text, { force = false } = {}) {
  const exists = () =>
    new InputError(
      `${file} already exists; results are never overwritten (pass --force to replace it, or choose another --out)`,
    );
  if (!force && existsSync(file)) throw exists();
  if (existsSync(file) && statSync(file).isDirectory())
    throw new InputError(`${file} is a folder; name a file to write`);
  const tmp = stage(file, text);
  try {
    if (force) renameSync(tmp, file);
    else {
      linkSync(tmp, file);
      unlinkSync(tmp);
    }
  } catch (err) {
    try {
      unlinkSync(tmp);
    } catch {
      /* already gone */
    }
    if (err.code === 'EEXIST') throw exists();
    throw new InputError(`${file}: cannot write (${err.code ?? err.message})`);
  }
}

/** Writes `text` to a temporary name beside `file` and returns that name. */
export function stage(file, text) {
  const tmp = `${file}.tmp-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(tmp, text, { flag: 'wx' });
  } catch (err) {
    try {
      unlinkSync(tmp);
    } catch {
      /* never created */
    }
    throw new InputError(`${file}: cannot write (${err.code ?? err.message})`);
  }
  return tmp;
}

/**
 * Several files all or nothing: every one is staged first; only when all are staged
 * are they renamed into place (a failure before that leaves the old files untouched).
 */
export function writeAllAtomic(entries) {
  const staged = [];
  try {
    for (const { file, text } of entries) staged.push({ file, tmp: stage(file, text) });
  } catch (err) {
    for (const s of staged)
      try {
        unlinkSync(s.tmp);
      } catch {
        /* gone */
      }
    throw err;
  }
  for (const s of staged) renameSync(s.tmp, s.file);
}
