// A run that cannot outlive its bound. A version probe runs whatever answers to a tool's
// name on PATH: a wrapper waiting on a daemon, a script that traps SIGTERM. spawnSync's
// timeout sends one signal and then waits for the child however long it takes, so doctor
// and `setup --check` sat until the job's own timeout. Here the child leads its own
// process group; at the bound the group gets SIGTERM and, after a grace, SIGKILL (a
// grandchild holding the output open goes with it), and the result says which it took.
import { spawn } from 'node:child_process';
import { toolEnv } from './tools.js';

const KEEP = 64_000; // characters of output kept: a version line is at the start

/** Runs path with args -> {code, output, stopped: null | 'SIGTERM' | 'SIGKILL'}; code 124
 *  when stopped at the bound. Never rejects. */
export function runBounded(path, args, { timeoutMs = 10_000, graceMs = 2_000, env } = {}) {
  return new Promise((resolve) => {
    let output = '';
    let stopped = null;
    let settled = false;
    const timers = [];
    const child = spawn(path, args, { env: toolEnv(env), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const finish = (code) => {
      if (settled) return;
      settled = true;
      timers.forEach(clearTimeout);
      child.stdout.destroy();
      child.stderr.destroy();
      resolve({ code: stopped ? 124 : (code ?? 128), output, stopped });
    };
    const keep = (d) => output.length < KEEP && (output += d);
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const signal = (sig) => {
      stopped = sig;
      try {
        process.kill(-child.pid, sig);
      } catch {
        /* the group is gone already */
      }
    };
    timers.push(
      setTimeout(() => {
        signal('SIGTERM');
        timers.push(setTimeout(() => signal('SIGKILL'), graceMs));
        // A grandchild that left the group (setsid) may keep the pipes open: stop waiting.
        timers.push(setTimeout(() => finish(null), 2 * graceMs));
      }, timeoutMs),
    );
    child.on('error', (err) => {
      output += err.message;
      finish(126);
    });
    child.on('close', (code) => finish(code));
  });
}
