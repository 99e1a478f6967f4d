// Offline, a controller's chart is its project's own archive at the pinned version, read
// from one folder (TAILGATE_CHARTS_DIR; default ../shared/charts beside the checkout) and
// checked against the sha256 its catalog entry pins before helm is given it. Online the
// same name and version come from the chart's official repository (steps.js chartSource):
// one pin, two paths.
import { createHash } from 'node:crypto';
import { closeSync, lstatSync, mkdirSync, openSync, readFileSync, readSync, realpathSync, rmSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { ROOT } from '../exec/tools.js';
import { InputError } from '../errors.js';
import { under } from '../names.js';
import { writeFileIn } from '../result/write.js';

// A chart archive is tens of KiB; nothing near this is one.
const MAX_ARCHIVE_BYTES = 16 * 1024 * 1024;
const NAME = /^[a-z0-9][a-z0-9-]{0,62}$/;
const VERSION = /^v?\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]{1,40})?$/;
const SHA256 = /^[0-9a-f]{64}$/;

export function chartsDir(env = process.env) {
  return resolve(env.TAILGATE_CHARTS_DIR || join(ROOT, '..', 'shared', 'charts'));
}

/** `<name>-<version>.tgz` in the charts folder (names checked: nothing from a file becomes a path unchecked). */
export function archivePath(chart, env = process.env) {
  if (!NAME.test(String(chart?.name)) || !VERSION.test(String(chart?.version)))
    throw new InputError(
      `chart name "${String(chart?.name).slice(0, 64)}" or version "${String(chart?.version).slice(0, 64)}" does not match ${NAME} / ${VERSION}: it cannot name a file in the charts folder`,
    );
  return join(chartsDir(env), `${chart.name}-${chart.version}.tgz`);
}

const verified = new Map();

/**
 * The archive's path once it exists inside the charts folder (links too), is a regular
 * file of sane size and has the pinned sha256; otherwise an InputError of one line naming
 * the file and what was expected. `where` says where the pin lives.
 */
export function verifiedArchive(chart, { where, env = process.env } = {}) {
  const file = archivePath(chart, env);
  const key = `${file}\0${chart.sha256}`;
  if (verified.has(key)) return verified.get(key);
  const problem = archiveProblem(file, chart, env);
  if (problem)
    throw new InputError(
      `offline chart ${file}: ${problem}; expected ${chart.name} ${chart.version} with sha256 ${chart.sha256 ?? '(none pinned)'}${where ? ` (${where})` : ''} — set TAILGATE_CHARTS_DIR to the folder that holds the controllers' chart archives`,
    );
  verified.set(key, file);
  return file;
}

/** Why the archive cannot be used (one phrase), or null. */
export function archiveProblem(file, chart, env = process.env) {
  if (!SHA256.test(String(chart.sha256))) return 'no sha256 pinned for this chart version';
  let real;
  try {
    lstatSync(file);
    real = realpathSync(file);
  } catch (err) {
    return err.code === 'ENOENT' ? 'missing' : `cannot be read (${err.code})`;
  }
  let dir;
  try {
    dir = realpathSync(chartsDir(env));
  } catch {
    return 'the charts folder cannot be resolved';
  }
  if (relative(dir, real).startsWith('..') || !real.startsWith(dir + sep))
    return 'a link that leaves the charts folder';
  const st = lstatSync(real);
  if (!st.isFile()) return 'not a regular file';
  if (st.size > MAX_ARCHIVE_BYTES) return `larger than ${MAX_ARCHIVE_BYTES} bytes`;
  const got = sha256Of(real, st.size);
  return got === chart.sha256 ? null : `sha256 ${got}, not the pinned one`;
}

function sha256Of(file, size) {
  const hash = createHash('sha256');
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(64 * 1024);
    let left = size;
    while (left > 0) {
      const n = readSync(fd, buf, 0, Math.min(buf.length, left), null);
      if (n === 0) break;
      hash.update(buf.subarray(0, n));
      left -= n;
    }
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}

// What an unpacked chart may hold (docs/results.md, "Inputs from elsewhere"): the largest pinned chart
// (Traefik 41.3.0) is 1.3 MiB in 128 entries; these leave room for growth and none for
// a bomb. Checked while the archive is read, before anything is written.
export const UNPACK_LIMITS = Object.freeze({ bytes: 32 << 20, entries: 5_000, pathBytes: 1_000 });

/**
 * The archive unpacked into `into` as helm packages a chart folder: helm applies the
 * chart's .helmignore only to a folder (the archives here are the chart folder at the
 * tag, so Traefik's crds/kustomization.yaml, which its .helmignore leaves out of a
 * release, is inside; installed from the archive, helm tries to apply it as a CRD).
 * Read here, not by tar: gunzip stops at UNPACK_LIMITS.bytes, entries are counted, only
 * regular files and folders are written (links are left out — helm does not follow them
 * in an archive, and none may leave the folder; a device or fifo refuses the archive),
 * and every name stays inside `into`. Returns the chart's folder.
 */
export function unpackChart(archive, into, name) {
  const entries = tarEntries(archive);
  rmSync(into, { recursive: true, force: true });
  mkdirSync(into, { recursive: true });
  for (const e of entries) {
    const path = under(into, e.path);
    if (e.type === 'dir') mkdirSync(path, { recursive: true });
    else {
      mkdirSync(dirname(path), { recursive: true });
      writeFileIn(into, path, e.data);
    }
  }
  return join(into, name);
}

/** [{path, type: file|dir, data}] of a .tgz, refused (InputError naming the archive) past the bounds. */
export function tarEntries(archive, limits = UNPACK_LIMITS) {
  const bad = (why) => new InputError(`chart archive ${archive}: ${why}; not unpacked`);
  let tar;
  try {
    tar = gunzipSync(readFileSync(archive), { maxOutputLength: limits.bytes });
  } catch (err) {
    if (err.code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError)
      throw bad(`expands to more than ${limits.bytes} bytes`);
    throw bad(`not a gzip archive (${err.code ?? 'unreadable'})`);
  }
  const out = [];
  let longName = null;
  let paxPath = null;
  for (let off = 0; off + 512 <= tar.length;) {
    const h = tar.subarray(off, off + 512);
    if (h.every((b) => b === 0)) break; // end of archive
    const size = octal(h.subarray(124, 136));
    if (size === null) throw bad(`entry ${out.length + 1} has no valid size`);
    const type = String.fromCharCode(h[156] || 0x30);
    const body = off + 512;
    if (body + size > tar.length) throw bad('an entry runs past the end of the archive');
    off = body + Math.ceil(size / 512) * 512;
    const data = tar.subarray(body, body + size);
    if (type === 'L') {
      longName = cstring(data);
      continue;
    }
    if (type === 'x') {
      paxPath = paxValue(data, 'path') ?? paxPath;
      continue;
    }
    if (type === 'g') continue; // global pax header: nothing a chart needs
    const prefix = cstring(h.subarray(345, 500));
    const raw =
      paxPath ?? longName ?? (prefix ? `${prefix}/${cstring(h.subarray(0, 100))}` : cstring(h.subarray(0, 100)));
    paxPath = longName = null;
    if (out.length >= limits.entries) throw bad(`more than ${limits.entries} entries`);
    if (Buffer.byteLength(raw) > limits.pathBytes || /(^|\/)\.\.(\/|$)|^\/|\0/.test(raw))
      throw bad(`entry ${out.length + 1} has a name that leaves the folder or is too long`);
    const path = raw.replace(/\/+$/, '');
    if (!path || path === '.') continue;
    if (type === '0' || type === '7') out.push({ path, type: 'file', data });
    else if (type === '5') out.push({ path, type: 'dir', data: null });
    else if (type === '1' || type === '2')
      continue; // links: left out, as before
    else throw bad(`entry ${out.length + 1} is of type '${type.replace(/[^\x21-\x7e]/g, '?')}', not a file or folder`);
  }
  return out;
}

function octal(field) {
  const t = cstring(field).trim();
  if (!/^[0-7]{1,12}$/.test(t)) return null;
  return parseInt(t, 8);
}

const cstring = (buf) => {
  const z = buf.indexOf(0);
  return buf.subarray(0, z < 0 ? buf.length : z).toString('utf8');
};

// A pax record is "<len> <key>=<value>\n".
function paxValue(data, key) {
  const text = data.toString('utf8');
  for (const line of text.split('\n')) {
    const m = /^\d+ ([^=]+)=(.*)$/s.exec(line);
    if (m && m[1] === key) return m[2];
  }
  return null;
}
