// The load as a Job inside the cluster (traffic from inside, the AKS report's test 2), on
// the engine the run chose (its job: engines/<name>/job.js — image, files as ConfigMaps,
// each runner's shell, how a runner says it is ready and is released, what is copied
// out): the ingress reached at its node's address (hostPort 80, chart-agnostic), raw
// output kept in the pod until it is copied out.
//
// runners: N > 1 makes it an Indexed Job of N pods, one segment each (the completion
// index picks it), spread over the nodes and kept off the ingress node when another
// exists. All start paused (k6: `k6 run --paused`; Vegeta: waiting for /out/go) and are
// released together once every one is up — no operator, no CRD, namespace rights only.
// Each runner's output is copied out and merged exactly (ingest/runners.js); a runner that
// dies, never starts or whose output is incomplete makes the cell inconclusive, naming
// it. The Job and its pods are deleted in every case.
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InfraError, RunnerProblem } from '../../errors.js';
import { chooseEngine, engineOf } from '../../engines/index.js';
import { loadBudget, segmentsOf } from '../../engines/load.js';
import { NAMESPACE } from './context.js';
import { JOB, jobManifest } from './load-job-manifest.js';
import { failure, run, runToFile } from '../../exec/run.js';

// The Job's manifest as applied, in the cell folder (the dry run prints the same).
export const JOB_FILE = 'load-job.json';

export async function runLoadInCluster(cell, { kubectlFlags, cellDir, signal }) {
  // The engine the run chose (run/runner.js sets cell.engine; auto's where a caller set
  // none, as engines/index.js runLoad): its name and its Job recipe.
  const { name, job } = engineOf(cell.engine ?? (await chooseEngine('auto')).name);
  const engine = { name, ...job };
  const kubectl = async (args, timeoutMs = 60_000) => {
    const r = await run(['kubectl', ...kubectlFlags, '-n', NAMESPACE, ...args], { timeoutMs, signal });
    if (r.code !== 0)
      throw new InfraError(`in-cluster load: kubectl ${args.join(' ')} failed`, {
        details: r.output.trim().split('\n').slice(-10),
      });
    return r.stdout;
  };
  const n = cell.scenario.runners ?? 1;
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
  if (!ingressIp) throw new InfraError('in-cluster load: no node labelled ingress-ready=true');
  for (const c of engine.configMaps) {
    const files = readdirSync(c.dir).map((f) => `--from-file=${join(c.dir, f)}`);
    await kubectl(['delete', 'configmap', c.name, '--ignore-not-found']);
    await kubectl(['create', 'configmap', c.name, ...files]);
  }
  // Foreground: the previous cell's runner pods are gone, not terminating beside the new ones.
  await kubectl(['delete', 'job', JOB, '--ignore-not-found', '--cascade=foreground', '--wait=true'], 120_000);
  const env = engine.env(cell.scenario, `http://${ingressIp}`);
  const segments = segmentsOf(cell.scenario);
  const placement = await placementOf(kubectl, n);
  const manifest = jobManifest({
    env,
    scripts: segments.map((seg) => engine.podScript(cell.scenario, seg)),
    placement,
    image: engine.image,
    configMaps: engine.configMaps,
  });
  writeFileSync(join(cellDir, JOB_FILE), JSON.stringify(manifest, null, 1));
  try {
    await kubectl(['apply', '-f', join(cellDir, JOB_FILE)]);
    // This Job's pods only (never a terminating one of an earlier Job of the same name).
    const uid = (await kubectl(['get', 'job', JOB, '-o', 'jsonpath={.metadata.uid}'])).trim();
    const selector = `batch.kubernetes.io/controller-uid=${uid}`;
    const outcome =
      n > 1
        ? await runRunners(cell, { n, kubectl, kubectlFlags, cellDir, signal, selector, engine })
        : await runSingle(cell, { kubectl, kubectlFlags, cellDir, signal, selector, engine });
    return { ...outcome, format: engine.name };
  } finally {
    // Always: a failed or interrupted cell leaves no load generator running.
    await run(
      [
        'kubectl',
        ...kubectlFlags,
        '-n',
        NAMESPACE,
        'delete',
        'job',
        JOB,
        '--ignore-not-found',
        '--cascade=foreground',
        '--wait=false',
      ],
      {
        timeoutMs: 60_000,
      },
    );
  }
}

async function runSingle(cell, { kubectl, kubectlFlags, cellDir, signal, selector, engine }) {
  const startedAt = Date.now();
  const pod = await waitFor(
    async () =>
      (await kubectl(['get', 'pods', '-l', selector, '-o', 'jsonpath={.items[0].metadata.name}'])).trim() || null,
    120_000,
    `the ${engine.name} pod to be created`,
  );
  const exitCode = await waitFor(
    () => readExit(kubectlFlags, pod, signal),
    loadBudget(cell.scenario) + 60_000,
    `${engine.name} to finish in the cluster`,
  );
  const files = await copyFiles(engine, kubectlFlags, pod, cellDir, null);
  return {
    exitCode,
    startedAt,
    output: files.output,
    command: `${engine.name} (Job ${JOB} in namespace ${NAMESPACE})`,
  };
}

// An Indexed Job of n paused runners: all started and answering, released together, waited
// for, their outputs copied out — a runner lost on the way makes the cell a RunnerProblem.
async function runRunners(cell, { n, kubectl, kubectlFlags, cellDir, signal, selector, engine }) {
  const name = (i, p) => `runner ${i + 1}/${n}${p ? ` (pod ${p.name} on node ${p.node})` : ''}`;
  const pods = await runnerPods({ n, kubectl, kubectlFlags, signal, selector, engine });
  const released = await Promise.all(
    pods.map(async (p) => ({ r: await exec(kubectlFlags, p.name, engine.release, signal), at: Date.now() })),
  );
  released.forEach(({ r }, i) => {
    if (r.code !== 0) throw new RunnerProblem(`${name(i, pods[i])} could not be released: ${r.output.trim()}`);
  });
  const deadline = Date.now() + loadBudget(cell.scenario) + 60_000;
  const exits = await runnerExits(pods, { deadline, kubectl, kubectlFlags, signal, name });
  const runners = [];
  for (let i = 0; i < n; i++) {
    const out = await copyRunnerOut(pods[i], { i, n, cellDir, kubectlFlags, signal, name, engine });
    runners.push({ ...out, exitCode: exits[i], startedAt: released[i].at, pod: pods[i].name, node: pods[i].node });
  }
  const bad = runners.find((r) => r.exitCode !== 0 && r.exitCode !== 99);
  return {
    exitCode: bad?.exitCode ?? 0,
    startedAt: Math.min(...runners.map((r) => r.startedAt)),
    endedAt: Math.max(...runners.map((r) => r.endedAt)),
    runners,
    command: `${engine.name} × ${n} (Indexed Job ${JOB} in namespace ${NAMESPACE})`,
  };
}

// Every runner up and paused, its REST API answering, before any is released.
async function runnerPods({ n, kubectl, kubectlFlags, signal, selector, engine }) {
  const pods = await waitFor(
    async () => {
      const list = JSON.parse(await kubectl(['get', 'pods', '-l', selector, '-o', 'json'])).items;
      const running = list.filter((p) => p.status?.phase === 'Running' && !p.metadata.deletionTimestamp);
      if (running.length < n) return null;
      return running
        .map((p) => ({
          name: p.metadata.name,
          uid: p.metadata.uid,
          node: p.spec.nodeName,
          index: Number(p.metadata.annotations?.['batch.kubernetes.io/job-completion-index']),
        }))
        .sort((a, b) => a.index - b.index);
    },
    180_000,
    `${n} ${engine.name} runner pods to run`,
  ).catch((err) => {
    throw new RunnerProblem(`${engine.name} runners never all started: ${err.message}`);
  });
  await waitFor(
    async () => {
      const up = await Promise.all(pods.map((p) => exec(kubectlFlags, p.name, engine.ready, signal)));
      return up.every((r) => r.code === 0) ? true : null;
    },
    60_000,
    `every ${engine.name} runner to be paused and ready`,
  );
  return pods;
}

// Each runner's exit code, polled once a second until all have one or the deadline.
async function runnerExits(pods, { deadline, kubectl, kubectlFlags, signal, name }) {
  const exits = new Array(pods.length).fill(null);
  while (exits.some((e) => e === null)) {
    if (Date.now() > deadline) throw new RunnerProblem(`runners did not finish in time: ${missing(exits, pods, name)}`);
    for (let i = 0; i < pods.length; i++) {
      if (exits[i] !== null) continue;
      exits[i] = await readExit(kubectlFlags, pods[i].name, signal);
      if (exits[i] === null && !(await stillThere(kubectl, pods[i])))
        throw new RunnerProblem(`${name(i, pods[i])} disappeared before it finished: no result from the survivors`);
    }
    if (exits.some((e) => e === null)) await new Promise((r) => setTimeout(r, 1000));
  }
  return exits;
}

// Runner i's output, summary and log, and when its load ended (its own clock, /out/end).
async function copyRunnerOut(pod, { i, n, cellDir, kubectlFlags, signal, name, engine }) {
  let files;
  try {
    files = await copyFiles(engine, kubectlFlags, pod.name, cellDir, { index: i, count: n });
  } catch (err) {
    throw new RunnerProblem(`${name(i, pod)}: its output could not be copied out (${err.message})`);
  }
  const ended = Number((await exec(kubectlFlags, pod.name, ['cat', '/out/end'], signal)).stdout.trim());
  return { ...files, endedAt: Number.isFinite(ended) && ended > 0 ? ended : Date.now() };
}

// A run's files (the engine's names: the same in the pod's /out and in the cell folder)
// copied out of its pod and made what ingest reads; the cell folder's paths.
async function copyFiles(engine, kubectlFlags, pod, cellDir, segment) {
  const [inPod, files] = [engine.files('/out', segment), engine.files(cellDir, segment)];
  for (const key of engine.copied) await copyOut(kubectlFlags, pod, inPod[key], files[key]);
  return engine.finish(files);
}

function missing(exits, pods, name) {
  return exits
    .map((e, i) => (e === null ? name(i, pods[i]) : null))
    .filter(Boolean)
    .join(', ');
}

// The same pod (by UID) still exists: a deleted runner's index gets a new pod from the
// Job controller, which would wait paused forever.
async function stillThere(kubectl, pod) {
  try {
    const uid = (await kubectl(['get', 'pod', pod.name, '-o', 'jsonpath={.metadata.uid}'])).trim();
    return uid === pod.uid;
  } catch {
    return false;
  }
}

// Where runners go: spread one per node, and off the ingress controller's node whenever
// the cluster has another; one runner keeps the loadgen node of the anti-affinity topology.
async function placementOf(kubectl, n) {
  const nodes = JSON.parse(await kubectl(['get', 'nodes', '-o', 'json'])).items;
  const label = (node, k) => node.metadata.labels?.[k];
  if (n === 1) return nodes.some((x) => label(x, 'tailgate.dev/role') === 'loadgen') ? { loadgen: true } : {};
  const others = nodes.filter((x) => label(x, 'ingress-ready') !== 'true');
  return { spread: true, avoidIngress: others.length > 0 };
}

function exec(kubectlFlags, pod, argv, signal) {
  return run(['kubectl', ...kubectlFlags, '-n', NAMESPACE, 'exec', pod, '--', ...argv], { timeoutMs: 15_000, signal });
}

async function readExit(kubectlFlags, pod, signal) {
  const r = await exec(kubectlFlags, pod, ['cat', '/out/exit'], signal);
  return r.code === 0 && /^\d+/.test(r.stdout.trim()) ? Number(r.stdout.trim()) : null;
}

async function waitFor(probe, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const v = await probe().catch(() => null);
    if (v !== null && v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new InfraError(`in-cluster load: timed out waiting for ${what}`);
}

// Binary-safe: kubectl exec's stdout straight into the file, flushed before we go on.
async function copyOut(kubectlFlags, pod, from, to) {
  const r = await runToFile(['kubectl', ...kubectlFlags, '-n', NAMESPACE, 'exec', pod, '--', 'cat', from], to, {
    timeoutMs: 120_000,
  });
  if (r.code !== 0) throw failure(`in-cluster load: cannot copy ${from} out of ${pod}`, r);
}
