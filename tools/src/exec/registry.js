// What a run started, written down as it starts it, so that a run killed outright
// (SIGKILL, the OOM killer, a runner giving up on a cancelled job) leaves nothing behind
// for long: the next `tailgate run` finds the dead run's entries and removes what is
// still there. Ctrl-C and SIGTERM are handled by the run itself; this is for the case
// where no code of the dead run gets to run.
//
// One file per live tailgate process, named by its pid and its start time (a pid alone
// is reused). The registry trusts only itself: its folder must be this user's and
// writable by no one else, an entry file must be this user's own regular file, and a
// process is killed only if it is this user's, its pid still has the recorded start time
// and it still runs the recorded executable — a reused pid, or a file someone else wrote
// naming their process, is never acted on. Linux only (/proc); elsewhere nothing is
// recorded.
import {
  appendFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  unlinkSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import { runSync } from './run.js';

// Machine-wide, not per checkout: on a self-hosted runner each job has a new workspace.
export function registryDir() {
  return (
    process.env.TAILGATE_STATE_DIR ??
    join(process.env.XDG_STATE_HOME || join(homedir(), '.local', 'state'), 'tailgate', 'live')
  );
}

const MAX_REGISTRY_BYTES = 1 << 20; // a run's entries: a few hundred lines
const NETNS = /^tgl[0-9a-z]{1,12}$/; // what a run may delete: local/netns.js's names only

/** Start time of a process in clock ticks since boot (field 22 of /proc/<pid>/stat), or null. */
export function startTime(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

/** The real uid of a process (/proc/<pid>/status), or null. */
function ownerOf(pid) {
  try {
    const m = /^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/** The executable a process runs (/proc/<pid>/exe), or null. */
function exeOf(pid) {
  try {
    return readlinkSync(`/proc/${pid}/exe`);
  } catch {
    return null;
  }
}

/** Why the state folder cannot be trusted (one phrase), or null. */
export function untrustedDir(dir) {
  let st;
  try {
    st = lstatSync(dir);
  } catch {
    return null; // made below, 0700
  }
  if (st.isSymbolicLink()) return 'it is a symbolic link';
  if (!st.isDirectory()) return 'it is not a folder';
  if (st.uid !== process.getuid()) return `it belongs to uid ${st.uid}, not to this user (uid ${process.getuid()})`;
  if (st.mode & 0o022) return `others can write it (mode ${(st.mode & 0o7777).toString(8)})`;
  return null;
}

let warned = false;
function trusted(dir) {
  const why = untrustedDir(dir);
  if (why && !warned) {
    warned = true;
    console.error(
      `tailgate: not using the process registry ${dir}: ${why}; set TAILGATE_STATE_DIR to a folder only you can write (a killed run's leftovers will not be removed)`,
    );
  }
  return !why;
}

let own = null;

function ownFile() {
  if (own !== null) return own;
  const start = startTime(process.pid);
  if (!start || typeof process.getuid !== 'function') return (own = '');
  try {
    mkdirSync(registryDir(), { recursive: true, mode: 0o700 });
    if (!trusted(registryDir())) return (own = '');
    own = join(registryDir(), `${process.pid}-${start}.jsonl`);
    // Removed on every normal way out; a killed run leaves it for the next sweep.
    process.once('exit', () => {
      try {
        unlinkSync(own);
      } catch {
        /* never written */
      }
    });
  } catch {
    own = ''; // an unwritable state dir costs the sweep, not the run
  }
  return own;
}

/**
 * Records a started process; `group`: it leads its own process group (detached). `argv`:
 * the command tailgate ran — the programs it names are what the process may run later (a
 * launcher such as `ip netns exec … nginx` execs the last of them).
 */
export function recordProcess(pid, { group = false, name = '', argv = [] } = {}) {
  const start = startTime(pid);
  const cmd = argv
    .slice(0, 64)
    .map((a) => basename(String(a)).slice(0, 64))
    .filter((a) => /^[\w.+-]+$/.test(a));
  if (start) write({ pid, start, group, name, cmd });
}

export function recordNetns(name) {
  write({ netns: name });
}

export function recordLink(name) {
  write({ link: name });
}

/** A kind cluster this run creates: another run's stale-cluster sweep leaves it alone. */
export function recordCluster(name) {
  write({ cluster: name });
}

/** Kind clusters that runs still alive on this machine recorded (this one's included). */
export function liveClusters() {
  const dir = registryDir();
  const out = new Set();
  if (!existsSync(dir) || typeof process.getuid !== 'function' || !trusted(dir)) return out;
  for (const name of readdirSync(dir)) {
    const m = /^(\d+)-(\d+)\.jsonl$/.exec(name);
    if (!m || startTime(Number(m[1])) !== m[2]) continue;
    for (const e of entries(join(dir, name))) if (typeof e.cluster === 'string') out.add(e.cluster);
  }
  return out;
}

function write(entry) {
  const file = ownFile();
  if (!file) return;
  try {
    appendFileSync(file, `${JSON.stringify(entry)}\n`);
  } catch {
    /* as above */
  }
}

/**
 * Removes what runs that died without cleaning up left running. Returns a one-line
 * summary, or null when there was nothing. A registry of a run that is still alive (a
 * second tailgate on this machine) is left alone.
 */
export function sweepDeadRuns() {
  const dir = registryDir();
  if (!existsSync(dir) || typeof process.getuid !== 'function' || !trusted(dir)) return null;
  const uid = process.getuid();
  let processes = 0;
  let namespaces = 0;
  const runs = [];
  const mine = basename(ownFile());
  for (const name of readdirSync(dir)) {
    const m = /^(\d+)-(\d+)\.jsonl$/.exec(name);
    const file = join(dir, name);
    if (!m || name === mine) continue;
    if (startTime(Number(m[1])) === m[2]) continue; // that run is alive
    if (!ownRegularFile(file, uid)) continue; // not written by this user: never acted on
    for (const e of entries(file)) {
      if (Number.isInteger(e.pid) && e.pid > 1 && sameProcess(e, uid)) {
        try {
          process.kill(e.group ? -e.pid : e.pid, 'SIGKILL');
          processes++;
        } catch {
          /* gone meanwhile */
        }
      } else if (typeof e.netns === 'string' && NETNS.test(e.netns)) {
        if (runSync(['ip', 'netns', 'del', e.netns], { timeoutMs: 10_000 }).code === 0) namespaces++;
      } else if (typeof e.link === 'string' && NETNS.test(e.link)) {
        runSync(['ip', 'link', 'del', e.link], { timeoutMs: 10_000 });
      }
    }
    runs.push(m[1]);
    try {
      unlinkSync(file);
    } catch {
      /* another sweeper took it */
    }
  }
  if (!processes && !namespaces) return null;
  return `tailgate: removed what ${runs.length === 1 ? 'a killed run' : `${runs.length} killed runs`} left behind (pid ${runs.join(', ')}): ${processes} process${processes === 1 ? '' : 'es'}${namespaces ? `, ${namespaces} network namespace${namespaces === 1 ? '' : 's'}` : ''}`;
}

function ownRegularFile(file, uid) {
  try {
    const st = lstatSync(file);
    return st.isFile() && st.uid === uid && !(st.mode & 0o022);
  } catch {
    return false;
  }
}

// The process the entry recorded, still: this user's, the same start time, and running a
// program the recorded command names (entries written before `cmd` are matched on the
// first two).
function sameProcess(e, uid) {
  if (startTime(e.pid) !== e.start || ownerOf(e.pid) !== uid) return false;
  if (e.cmd === undefined) return true;
  const exe = exeOf(e.pid);
  return Array.isArray(e.cmd) && exe !== null && e.cmd.includes(basename(exe));
}

function entries(file) {
  try {
    if (lstatSync(file).size > MAX_REGISTRY_BYTES) return [];
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => {
        try {
          return JSON.parse(l);
        } catch {
          return {};
        }
      });
  } catch {
    return [];
  }
}
