// A pod port only the pod itself can reach (Envoy's admin API listens on 127.0.0.1 in
// the pod, and its image has no shell): `kubectl port-forward` to a local port kubectl
// picks and names in its first line, used once, then stopped.
import { readFileSync } from 'node:fs';
import { InfraError } from '../../errors.js';
import { startProcess } from '../../exec/start.js';
import { commandLine } from '../../exec/command.js';
import { tail } from '../../exec/run.js';

const READY = /Forwarding from 127\.0\.0\.1:(\d+)/;

export async function withPortForward({ kubectl, pod, port, logFile, readyMs = 15_000 }, use) {
  const argv = kubectl('port-forward', '--address', '127.0.0.1', `pod/${pod}`, `:${port}`);
  const child = await startProcess(argv, { logFile, name: 'kubectl port-forward' });
  try {
    const local = await localPort(child, logFile, readyMs, argv);
    return await use(local);
  } finally {
    child.kill('SIGTERM');
    await Promise.race([child.exited, new Promise((r) => setTimeout(r, 2000))]);
  }
}

async function localPort(child, logFile, readyMs, argv) {
  let exited = null;
  child.exited.then((e) => (exited = e));
  const deadline = Date.now() + readyMs;
  for (;;) {
    const m = READY.exec(readFileSync(logFile, 'utf8'));
    if (m) return Number(m[1]);
    if (exited || Date.now() > deadline)
      throw new InfraError(
        `kubectl port-forward ${exited ? `exited (code ${exited.code})` : `gave no local port within ${readyMs / 1000}s`}`,
        { details: [`command: ${commandLine(argv)}`, tail(readFileSync(logFile, 'utf8'), 8)] },
      );
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** GET a URL, at most maxBytes of body (a config dump is megabytes, never unbounded). */
export async function getBounded(url, { timeoutMs = 20_000, maxBytes = 64 << 20 } = {}) {
  const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  if (!res.ok) throw new InfraError(`GET ${url}: HTTP ${res.status}`);
  const chunks = [];
  let size = 0;
  for await (const chunk of res.body) {
    size += chunk.length;
    if (size > maxBytes) throw new InfraError(`GET ${url}: body larger than ${maxBytes} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
