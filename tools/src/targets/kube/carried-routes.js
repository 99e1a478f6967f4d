// `routes: N` on a scenario: the controller carries N routes before the load starts —
// each its own host (c<i>.<tag>.carried.bench.local, tag the measurement's: routes.js) in
// front of the same backend, an Ingress of the side's class or an HTTPRoute on its
// Gateway, applied at once (one apply per side, both sides together). What carrying them
// costs is measured per side: the time from the apply to every route answering 200, and
// the controller pods' CPU and RSS across it (their cgroups, as CPU per request is read).
// Event routes-carried; the routes stay for the load and are deleted after the
// measurement with the route faults' others.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InfraError } from '../../errors.js';
import { run } from '../../exec/run.js';
import { routeManifest } from './route-manifests.js';
import { httpAnswer } from './builtins.js';

// Ten minutes is how long a 2-core runner may take to make 1,000 routes answer; past it
// the cell is an infrastructure error, not a figure.
const ANSWER_TIMEOUT_MS = 600_000;
const CONCURRENT_PROBES = 16;
const ROUND_PAUSE_MS = 100;

/**
 * sides as KubeRoutes takes them; `sample(side)` reads that side's controller pods (or null);
 * tag: the measurement's, in every name and host — an earlier measurement's routes, deleted
 * but perhaps still served, would answer at once and understate the time to carry them.
 */
export async function carryRoutes({ n, sides, kubectlFlags, dir, events, sample, tag }) {
  const hostOf = (i) => `c${i}.${tag}.carried.bench.local`;
  await Promise.all(
    sides.map(async (s) => {
      const items = Array.from({ length: n }, (_, i) =>
        routeManifest(s, `carried-${i}-${tag}${s.side === 'head' ? '-b' : ''}`, hostOf(i), 'carried'),
      );
      const file = join(dir, `carried-routes-${s.side}.json`);
      writeFileSync(file, JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
      const before = await sample(s.side);
      const start = Date.now();
      const r = await run(['kubectl', ...kubectlFlags, 'apply', '-f', file], { timeoutMs: ANSWER_TIMEOUT_MS });
      if (r.code !== 0)
        throw new InfraError(`kubectl apply of ${n} carried routes: ${r.output.trim().split('\n').at(-1)}`);
      const appliedMs = Date.now() - start;
      const answered = await allAnswer(s.url, n, hostOf, start + ANSWER_TIMEOUT_MS);
      const allAnsweredMs = Date.now() - start;
      const after = await sample(s.side);
      if (answered < n)
        throw new InfraError(
          `${answered} of ${n} carried routes answered within ${ANSWER_TIMEOUT_MS / 1000}s (${s.side}): fewer routes, or a larger runner`,
        );
      events.emit('routes-carried', {
        side: s.side,
        routes: n,
        appliedMs,
        allAnsweredMs,
        ...(before && after
          ? {
              cpuSeconds: Number(((after.cpuNs - before.cpuNs) / 1e9).toFixed(3)),
              rssMiBBefore: Number((before.memBytes / 2 ** 20).toFixed(1)),
              rssMiBAfter: Number((after.memBytes / 2 ** 20).toFixed(1)),
            }
          : {}),
      });
    }),
  );
}

// Every route probed in rounds (a few at a time) until each has answered 200 once.
async function allAnswer(url, n, hostOf, deadline) {
  const pending = new Set(Array.from({ length: n }, (_, i) => i));
  while (pending.size && Date.now() < deadline) {
    const queue = [...pending];
    await Promise.all(
      Array.from({ length: Math.min(CONCURRENT_PROBES, queue.length) }, async () => {
        for (let i = queue.pop(); i !== undefined; i = queue.pop()) {
          const a = await httpAnswer(`${url}/healthz`, hostOf(i)).catch(() => null);
          if (a?.status === 200) pending.delete(i);
        }
      }),
    );
    if (pending.size) await new Promise((res) => setTimeout(res, ROUND_PAUSE_MS));
  }
  return n - pending.size;
}
