// dockerd keeps the TMPDIR it was started with for life, and so do containerd and every
// runc shim under it: they put the console socket of each --tty container (every kind
// node) in that folder. A dockerd first started from inside a test run's own TMPDIR
// fails every kind node after that folder is removed, with "failed to create OCI runtime
// console socket: stat <dir>: no such file or directory" — CI's three failing kind cases.
// The folder is empty scratch space: making it again is the whole repair.
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readSync } from 'node:fs';
import { join } from 'node:path';

const DAEMONS = new Set(['dockerd', 'containerd']);
const MAX_READ = 256 * 1024; // /proc/<pid>/environ: bounded by the kernel's ARG_MAX anyway
// A folder made from what a process's environment says: absolute, plain names (none
// starts with a dot, so no ".." either).
const SAFE_DIR = /^\/(?:[A-Za-z0-9_][A-Za-z0-9._-]*\/)*[A-Za-z0-9_][A-Za-z0-9._-]*$/;

function readBounded(file) {
  let fd;
  try {
    fd = openSync(file, 'r');
    const buf = Buffer.alloc(MAX_READ);
    const n = readSync(fd, buf, 0, MAX_READ, null);
    return buf.subarray(0, n).toString('latin1');
  } catch {
    return null; // gone, or another user's process: nothing to say about it
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The TMPDIR of each running dockerd/containerd: [{pid, name, dir, exists}]. */
export function daemonTmpdirs({ proc = '/proc' } = {}) {
  let pids;
  try {
    pids = readdirSync(proc).filter((d) => /^\d+$/.test(d));
  } catch {
    return []; // not Linux
  }
  const found = [];
  for (const pid of pids) {
    const name = readBounded(join(proc, pid, 'comm'))?.trim();
    if (!DAEMONS.has(name)) continue;
    const env = readBounded(join(proc, pid, 'environ'));
    const dir = env
      ?.split('\0')
      .find((kv) => kv.startsWith('TMPDIR='))
      ?.slice('TMPDIR='.length);
    if (dir) found.push({ pid: Number(pid), name, dir, exists: existsSync(dir) });
  }
  return found;
}

/** Makes each missing daemon TMPDIR again; returns one line per folder made or left. */
export function repairDaemonTmpdirs(opts = {}) {
  const lines = [];
  for (const dir of new Set(
    daemonTmpdirs(opts)
      .filter((d) => !d.exists)
      .map((d) => d.dir),
  )) {
    if (!SAFE_DIR.test(dir)) {
      lines.push(`! dockerd's TMPDIR is gone and is not a plain path: not made again; restart dockerd`);
      continue;
    }
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      lines.push(`dockerd's TMPDIR ${dir} was gone (kind nodes cannot start without it): made it again`);
    } catch (e) {
      lines.push(`! dockerd's TMPDIR ${dir} is gone and could not be made again (${e.code}): restart dockerd`);
    }
  }
  return lines;
}
