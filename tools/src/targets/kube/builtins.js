// Steps tailgate does itself rather than through an external command.
import { request } from 'node:http';
import { InfraError } from '../../errors.js';
import { run } from '../../exec/run.js';

export async function deleteStaleClusters(prefix, log) {
  const r = await run(['kind', 'get', 'clusters'], { timeoutMs: 30_000 });
  if (r.code !== 0) return; // the create step reports a missing kind/docker clearly
  for (const name of r.output
    .split('\n')
    .map((s) => s.trim())
    .filter((s) => s.startsWith(prefix))) {
    log(`deleting stale kind cluster ${name}`);
    await run(['kind', 'delete', 'cluster', '--name', name], { timeoutMs: 120_000 });
  }
}

/** Polls until the URL answers 200 with the Host header (Ingress programmed), or fails. */
export async function waitHttp(url, host, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    try {
      const status = await get(url, host);
      if (status === 200) return;
      last = `HTTP ${status}`;
    } catch (err) {
      last = err.code ?? err.message;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new InfraError(
    `the ingress did not route ${url} (Host: ${host}) to the backend within ${timeoutMs / 1000}s: last ${last}`,
  );
}

// fetch() would send its own Host header (it is a forbidden header there); the
// Ingress routes by Host, so use node:http, which sends the one given.
function get(url, host) {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { host }, timeout: 2000 }, (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end();
  });
}
