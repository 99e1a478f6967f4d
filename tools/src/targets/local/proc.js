// Child processes of a run: each in its own process group (detached), so a kill
// takes the nginx master and its workers together, and a registry so that every
// process is stopped on success, failure and Ctrl-C alike.
import { createConnection } from 'node:net';
import { InfraError } from '../../errors.js';
import { startProcess } from '../../exec/start.js';
import { inNamespace } from './netns.js';

export class ProcessGroup {
  constructor() {
    this.children = new Set();
  }

  /** Starts cmd with stdout/stderr to logFile. Resolves once the process has spawned. */
  async start(cmd, args, { logFile, env, name = cmd, ns } = {}) {
    const [file, argv] = inNamespace(ns, cmd, args);
    const child = await startProcess([file, ...argv], { logFile, env, name, detached: true });
    this.children.add(child);
    child.exited.then(() => this.children.delete(child));
    return child;
  }

  /** SIGKILL the whole process group: killing only an nginx master leaves its worker serving. */
  killGroup(child, signal = 'SIGKILL') {
    try {
      process.kill(-child.pid, signal);
    } catch (err) {
      if (err.code !== 'ESRCH') throw err;
    }
    return child.exited;
  }

  async stopAll({ graceMs = 2000 } = {}) {
    const alive = [...this.children];
    for (const c of alive) this.killSafe(c, 'SIGTERM');
    await Promise.race([Promise.all(alive.map((c) => c.exited)), sleep(graceMs)]);
    for (const c of [...this.children]) this.killSafe(c, 'SIGKILL');
    await Promise.all([...this.children].map((c) => c.exited));
  }

  killSafe(child, signal) {
    try {
      process.kill(-child.pid, signal);
    } catch {
      /* already gone */
    }
  }
}

export function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

/** Resolves when host:port accepts a TCP connection; rejects after timeoutMs. */
export async function waitForPort(host, port, { timeoutMs = 5000, child, what = `${host}:${port}` } = {}) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null)
      throw new InfraError(`${what} exited with code ${child.exitCode} before listening`);
    if (await canConnect(host, port)) return;
    await sleep(20);
  }
  throw new InfraError(`${what} did not accept connections on ${host}:${port} within ${timeoutMs} ms`);
}

export function canConnect(host, port) {
  return new Promise((resolve) => {
    const s = createConnection({ host, port });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}
