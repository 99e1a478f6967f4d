// Steps tailgate does itself rather than through an external command.
import { InfraError } from '../../errors.js';
import { runCommand } from './exec.js';

export async function deleteStaleClusters(prefix, log) {
  const r = await runCommand(['kind', 'get', 'clusters'], { timeoutMs: 30_000 });
  if (r.code !== 0) return; // the create step reports a missing kind/docker clearly
  for (const name of r.output.split('\n').map((s) => s.trim()).filter((s) => s.startsWith(prefix))) {
    log(`deleting stale kind cluster ${name}`);
    await runCommand(['kind', 'delete', 'cluster', '--name', name], { timeoutMs: 120_000 });
  }
}

/** Polls until the URL answers 200 with the Host header (Ingress programmed), or fails. */
export async function waitHttp(url, host, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url, { headers: { host }, signal: AbortSignal.timeout(2000) });
      if (res.status === 200) return;
      last = `HTTP ${res.status}`;
    } catch (err) {
      last = err.cause?.code ?? err.message;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new InfraError(`the ingress did not route ${url} (Host: ${host}) to the backend within ${timeoutMs / 1000}s: last ${last}`);
}
