// Offline, a controller's chart is its project's own archive at the pinned version, read
// from one folder (TAILGATE_CHARTS_DIR; default ../shared/charts beside the checkout) and
// checked against the sha256 its catalog entry pins before helm is given it. Online the
// same name and version come from the chart's official repository (steps.js chartSource):
// one pin, two paths.
import { createHash } from 'node:crypto';
import { closeSync, lstatSync, mkdirSync, openSync, readdirSync, readSync, realpathSync, rmSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { ROOT } from '../../exec/tools.js';
import { InfraError, InputError } from '../../errors.js';
import { runSync } from '../../exec/run.js';

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

/**
 * The archive unpacked into `into` as helm packages a chart folder: helm applies the
 * chart's .helmignore only to a folder (the archives here are the chart folder at the
 * tag, so Traefik's crds/kustomization.yaml, which its .helmignore leaves out of a
 * release, is inside; installed from the archive, helm tries to apply it as a CRD).
 * Links are removed — helm does not follow them in an archive, and none may leave the
 * folder. Returns the chart's folder.
 */
export function unpackChart(archive, into, name) {
  rmSync(into, { recursive: true, force: true });
  mkdirSync(into, { recursive: true });
  const r = runSync(['tar', '--no-same-owner', '--no-same-permissions', '-xzf', archive, '-C', into], {
    timeoutMs: 60_000,
  });
  if (r.code !== 0) throw new InfraError(`cannot unpack ${archive}: ${r.output.trim().split('\n').at(-1)}`);
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isSymbolicLink()) rmSync(p);
      else if (e.isDirectory()) walk(p);
    }
  };
  walk(into);
  return join(into, name);
}
