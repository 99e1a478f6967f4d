// Steps tailgate does itself rather than through an external command.
import { request } from 'node:http';
import { InfraError } from '../../errors.js';
import { commandLine } from '../../exec/command.js';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parse, stringify } from 'yaml';
import { run } from '../../exec/run.js';
import { HOST_PORT } from './context.js';
import { liveClusters } from '../../exec/registry.js';

// Clusters a tailgate run still alive on this machine created (the process registry) are
// not stale: two runs at once must not delete each other's clusters.
export async function deleteStaleClusters(prefix, log) {
  const r = await run(['kind', 'get', 'clusters'], { timeoutMs: 30_000 });
  if (r.code !== 0) return 0; // the create step reports a missing kind/docker clearly
  const live = liveClusters();
  let deleted = 0;
  for (const name of r.stdout
    .split('\n')
    .map((s) => s.trim())
    .filter((s) => s.startsWith(prefix))) {
    if (live.has(name)) {
      log(`kind cluster ${name} belongs to a tailgate run still running here: left alone`);
      continue;
    }
    log(`deleting stale kind cluster ${name}`);
    await run(['kind', 'delete', 'cluster', '--name', name], { timeoutMs: 120_000 });
    deleted++;
  }
  return deleted;
}

/** Polls until the URL answers 200 with the Host header (Ingress programmed), or fails. */
export async function waitHttp(url, host, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    try {
      const status = await httpStatus(url, host);
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

/**
 * Polls an HTTPRoute (getArgv: `kubectl get httproute … -o json`) until every parent
 * Gateway reports Accepted and ResolvedRefs True. A condition that says False is final
 * (the Gateway refused the route): it fails at once with the condition's own words.
 */
export async function waitRoute(getArgv, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  let last = 'no status yet';
  while (Date.now() < deadline) {
    const r = await run(getArgv, { timeoutMs: 30_000 });
    if (r.code === 0) {
      let route;
      try {
        route = JSON.parse(r.stdout);
      } catch {
        route = null;
      }
      const parents = route?.status?.parents ?? [];
      const conds = parents.flatMap((p) => p.conditions ?? []);
      const refused = conds.find((c) => ['Accepted', 'ResolvedRefs'].includes(c.type) && c.status === 'False');
      if (refused)
        throw new InfraError(
          `the Gateway refused the HTTPRoute: ${refused.type}=False (${refused.reason}): ${refused.message}`,
          {
            details: [`command: ${commandLine(getArgv)}`],
          },
        );
      const ok = (type) =>
        parents.length && parents.every((p) => p.conditions?.some((c) => c.type === type && c.status === 'True'));
      if (ok('Accepted') && ok('ResolvedRefs')) return;
      if (conds.length) last = conds.map((c) => `${c.type}=${c.status} (${c.reason})`).join(', ');
    } else last = r.output.trim().split('\n').at(-1);
    await new Promise((res) => setTimeout(res, 1000));
  }
  throw new InfraError(`the HTTPRoute was not accepted within ${timeoutMs / 1000}s: ${last}`, {
    details: [`command: ${commandLine(getArgv)}`],
  });
}

// fetch() would send its own Host header (it is a forbidden header there); the
// Ingress routes by Host, so use node:http, which sends the one given.
async function httpStatus(url, host) {
  return (await httpAnswer(url, host)).status;
}

/** -> {status, headers} (header names in lower case); the body is discarded. */
export function httpAnswer(url, host) {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { host }, timeout: 2000 }, (res) => {
      res.resume();
      resolve({ status: res.statusCode, headers: res.headers });
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end();
  });
}

/**
 * A kind config whose ingress port mapping (127.0.0.1:HOST_PORT -> the ingress node's
 * port 80) uses another host port: interleaved clusters are all up at once, each on
 * its own port. Exactly one mapping must match, or the topology is not one of ours.
 */
export function writeKindConfig(from, hostPort, to, extraPort = null) {
  const doc = parse(readFileSync(from, 'utf8'));
  const mappings = (doc.nodes ?? []).flatMap((n) => n.extraPortMappings ?? []);
  const ingress = mappings.filter((m) => m.containerPort === 80 && m.hostPort === HOST_PORT);
  if (ingress.length !== 1)
    throw new InfraError(
      `${from}: expected one port mapping containerPort 80 -> hostPort ${HOST_PORT} (the ingress), found ${ingress.length}`,
    );
  ingress[0].hostPort = hostPort;
  // A duet's head listens on another node port of the same ingress node.
  if (extraPort) {
    const node = doc.nodes.find((n) => (n.extraPortMappings ?? []).includes(ingress[0]));
    node.extraPortMappings.push({
      ...ingress[0],
      containerPort: extraPort.containerPort,
      hostPort: extraPort.hostPort,
    });
  }
  mkdirSync(dirname(to), { recursive: true });
  writeFileSync(to, stringify(doc));
}
