// Results are evidence: written whole (temp file + rename) and never replaced
// unless the caller says --force. Without --force the final name is claimed with a
// hard link, which fails if the name exists — so two writers racing for one --out
// cannot both succeed.
//
// Every write goes through writablePath: no symbolic link at the file or in any folder
// between the folder the write belongs to (`root`: the store, the site, a run, the
// baselines, a chart folder) and the file. A link there — committed to the history
// branch, unpacked from an artifact — would send the write outside that folder while
// tailgate printed that it wrote inside. `root` itself is the caller's (a folder the user
// named may be a link); without one, only the file itself is checked.
import {
  closeSync,
  constants,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { InputError } from '../errors.js';

/** `file`, resolved, once no component from `root` (exclusive) down to it is a link. */
export function writablePath(file, { root = dirname(file) } = {}) {
  const top = resolve(root);
  const full = resolve(file);
  const rel = relative(top, full);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel))
    throw new InputError(`${file}: resolves outside ${root}; tailgate writes only inside it`);
  let p = top;
  for (const part of rel.split(sep)) {
    p = join(p, part);
    let st;
    try {
      st = lstatSync(p);
    } catch (err) {
      if (err.code === 'ENOENT') break; // made by this write, not a link
      throw new InputError(`${p}: cannot write (${err.code})`);
    }
    if (st.isSymbolicLink())
      throw new InputError(
        `${p}: a symbolic link; tailgate never writes through links (this one could lead outside ${root})`,
      );
  }
  return full;
}

/** mkdir -p of `dir` inside `root`, refusing links on the way. */
export function makeDirIn(root, dir) {
  writablePath(dir, { root });
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Writes (or with append: appends to) `file` inside `root`; O_NOFOLLOW as a second lock. */
export function writeFileIn(root, file, text, { append = false } = {}) {
  writablePath(file, { root });
  const flags =
    constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | (append ? constants.O_APPEND : constants.O_TRUNC);
  let fd;
  try {
    fd = openSync(file, flags, 0o644);
    writeSync(fd, text);
  } catch (err) {
    throw new InputError(`${file}: cannot write (${err.code ?? err.message})`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  return file;
}

export function writeJsonAtomic(file, value, opts = {}) {
  writeTextAtomic(file, `${JSON.stringify(value, null, 1)}\n`, opts);
}

export function writeTextAtomic(file, text, { force = false, root } = {}) {
  writablePath(file, { root });
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
    for (const { file, text, root } of entries) {
      writablePath(file, { root });
      staged.push({ file, tmp: stage(file, text) });
    }
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
