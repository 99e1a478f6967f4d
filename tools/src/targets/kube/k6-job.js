// k6 as a Job inside the cluster (traffic from inside, the AKS report's test 2): the
// scenario scripts as ConfigMaps, the ingress reached at its node's address (hostPort
// 80, chart-agnostic), raw output kept in the pod until it is copied out.
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../exec/tools.js';
import { InfraError } from '../../errors.js';
import { k6Args, k6Budget, k6Env } from '../../run/k6.js';
import { NAMESPACE } from './context.js';
import { PINS } from '../../version.js';
import { failure, run, runToFile } from '../../exec/run.js';

export const K6_IMAGE = process.env.TAILGATE_K6_IMAGE || `grafana/k6:${PINS.k6.replace(/^v/, '')}`;
const JOB = 'tailgate-k6';

export async function runK6InCluster(cell, { kubectlFlags, cellDir, signal }) {
  const kubectl = async (args, timeoutMs = 60_000) => {
    const r = await run(['kubectl', ...kubectlFlags, '-n', NAMESPACE, ...args], { timeoutMs, signal });
    if (r.code !== 0)
      throw new InfraError(`in-cluster k6: kubectl ${args.join(' ')} failed`, {
        details: r.output.trim().split('\n').slice(-10),
      });
    return r.output;
  };
  const ingressIp = (
    await kubectl([
      'get',
      'nodes',
      '-l',
      'ingress-ready=true',
      '-o',
      'jsonpath={.items[0].status.addresses[?(@.type=="InternalIP")].address}',
    ])
  ).trim();
  if (!ingressIp) throw new InfraError('in-cluster k6: no node labelled ingress-ready=true');
  for (const dir of ['scenarios', 'lib']) {
    const files = readdirSync(join(ROOT, 'k6', dir)).map((f) => `--from-file=${join(ROOT, 'k6', dir, f)}`);
    await kubectl(['delete', 'configmap', `tg-k6-${dir}`, '--ignore-not-found']);
    await kubectl(['create', 'configmap', `tg-k6-${dir}`, ...files]);
  }
  await kubectl(['delete', 'job', JOB, '--ignore-not-found', '--wait=true']);
  const env = k6Env(cell.scenario, {
    url: `http://${ingressIp}`,
    host: 'bench.local',
    summary: '/out/k6-summary.json',
  });
  const args = k6Args(cell.scenario, '/out').map((a) => a.replace(join(ROOT, 'k6'), '/k6'));
  const manifest = jobManifest({ env, args, loadgenNode: await hasLoadgenNode(kubectl) });
  const file = join(cellDir, 'k6-job.json');
  writeFileSync(file, JSON.stringify(manifest, null, 1));
  const startedAt = Date.now();
  await kubectl(['apply', '-f', file]);
  const pod = await waitFor(
    async () =>
      (await kubectl(['get', 'pods', '-l', `job-name=${JOB}`, '-o', 'jsonpath={.items[0].metadata.name}'])).trim() ||
      null,
    120_000,
    'the k6 pod to be created',
  );
  const exitCode = await waitFor(
    async () => {
      const r = await run(['kubectl', ...kubectlFlags, '-n', NAMESPACE, 'exec', pod, '--', 'cat', '/out/exit'], {
        timeoutMs: 15_000,
        signal,
      });
      return r.code === 0 && /^\d+/.test(r.output.trim()) ? Number(r.output.trim()) : null;
    },
    k6Budget(cell.scenario) + 60_000,
    'k6 to finish in the cluster',
  );
  for (const name of ['k6.json.gz', 'k6-summary.json', 'k6.log'])
    await copyOut(kubectlFlags, pod, `/out/${name}`, join(cellDir, name));
  await kubectl(['delete', 'job', JOB, '--ignore-not-found', '--wait=false']);
  return { exitCode, startedAt, command: `k6 ${args.join(' ')} (Job ${JOB} in namespace ${NAMESPACE})` };
}

function jobManifest({ env, args, loadgenNode }) {
  const script = `k6 ${args.map((a) => `'${a}'`).join(' ')} > /out/k6.log 2>&1; echo $? > /out/exit; sleep 600`;
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: JOB },
    spec: {
      backoffLimit: 0,
      ttlSecondsAfterFinished: 300,
      template: {
        metadata: { labels: { app: 'tailgate-k6' } },
        spec: {
          restartPolicy: 'Never',
          ...(loadgenNode ? { nodeSelector: { 'tailgate.dev/role': 'loadgen' } } : {}),
          tolerations: [{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' }],
          containers: [
            {
              name: 'k6',
              image: K6_IMAGE,
              imagePullPolicy: K6_IMAGE.startsWith('localhost/') ? 'Never' : 'IfNotPresent',
              command: ['sh', '-c', script],
              env: Object.entries({ ...env, K6_NO_USAGE_REPORT: 'true' }).map(([name, value]) => ({
                name,
                value: String(value),
              })),
              volumeMounts: [
                { name: 'scenarios', mountPath: '/k6/scenarios' },
                { name: 'lib', mountPath: '/k6/lib' },
                { name: 'out', mountPath: '/out' },
              ],
            },
          ],
          volumes: [
            { name: 'scenarios', configMap: { name: 'tg-k6-scenarios' } },
            { name: 'lib', configMap: { name: 'tg-k6-lib' } },
            { name: 'out', emptyDir: {} },
          ],
        },
      },
    },
  };
}

async function hasLoadgenNode(kubectl) {
  return (await kubectl(['get', 'nodes', '-l', 'tailgate.dev/role=loadgen', '-o', 'name'])).trim().length > 0;
}

async function waitFor(probe, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const v = await probe().catch(() => null);
    if (v !== null && v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new InfraError(`in-cluster k6: timed out waiting for ${what}`);
}

// Binary-safe: kubectl exec's stdout straight into the file, flushed before we go on.
async function copyOut(kubectlFlags, pod, from, to) {
  const r = await runToFile(['kubectl', ...kubectlFlags, '-n', NAMESPACE, 'exec', pod, '--', 'cat', from], to, {
    timeoutMs: 120_000,
  });
  if (r.code !== 0) throw failure(`in-cluster k6: cannot copy ${from} out of ${pod}`, r);
}
