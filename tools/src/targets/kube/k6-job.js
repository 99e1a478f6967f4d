// k6 as a Job inside the cluster (traffic from inside, the AKS report's test 2): the
// scenario scripts as ConfigMaps, the ingress reached at its node's address (hostPort
// 80, chart-agnostic), raw output kept in the pod until it is copied out.
//
// runners: N > 1 makes it an Indexed Job of N pods, one execution segment each (the
// completion index picks it), spread over the nodes and kept off the ingress node when
// another exists. All start paused (`k6 run --paused`) and are released together by
// `k6 resume` once every one is up — no operator, no CRD, namespace rights only. Each
// runner's output is copied out and merged exactly (run/runners.js); a runner that
// dies, never starts or whose output is incomplete makes the cell inconclusive, naming
// it. The Job and its pods are deleted in every case.
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../exec/tools.js';
import { InfraError, RunnerProblem } from '../../errors.js';
import { k6Budget } from '../../run/k6.js';
import { NAMESPACE } from './context.js';
import { JOB, jobManifest } from './k6-job-manifest.js';
import { JOB_ENGINES } from './job-engines.js';
import { failure, run, runToFile } from '../../exec/run.js';

export async function runK6InCluster(cell, { kubectlFlags, cellDir, signal }) {
  // The engine the run chose (job-engines.js): k6's scripts and resume, or Vegeta's attacks.
  const engine = JOB_ENGINES[cell.engine ?? 'k6'];
  const kubectl = async (args, timeoutMs = 60_000) => {
    const r = await run(['kubectl', ...kubectlFlags, '-n', NAMESPACE, ...args], { timeoutMs, signal });
    if (r.code !== 0)
      throw new InfraError(`in-cluster k6: kubectl ${args.join(' ')} failed`, {
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
  if (!ingressIp) throw new InfraError('in-cluster k6: no node labelled ingress-ready=true');
  if (engine.configMaps)
    for (const dir of ['scenarios', 'lib']) {
      const files = readdirSync(join(ROOT, 'k6', dir)).map((f) => `--from-file=${join(ROOT, 'k6', dir, f)}`);
      await kubectl(['delete', 'configmap', `tg-k6-${dir}`, '--ignore-not-found']);
      await kubectl(['create', 'configmap', `tg-k6-${dir}`, ...files]);
    }
  // Foreground: the previous cell's runner pods are gone, not terminating beside the new ones.
  await kubectl(['delete', 'job', JOB, '--ignore-not-found', '--cascade=foreground', '--wait=true'], 120_000);
  const env = engine.env(cell.scenario, `http://${ingressIp}`);
  const segments = n > 1 ? Array.from({ length: n }, (_, index) => ({ index, count: n })) : [null];
  const placement = await placementOf(kubectl, n);
  const manifest = jobManifest({
    env,
    scripts: segments.map((seg) => engine.podScript(cell.scenario, seg)),
    placement,
    image: engine.image,
    configMaps: engine.configMaps,
  });
  writeFileSync(join(cellDir, 'k6-job.json'), JSON.stringify(manifest, null, 1));
  try {
    await kubectl(['apply', '-f', join(cellDir, 'k6-job.json')]);
    // This Job's pods only (never a terminating one of an earlier Job of the same name).
    const uid = (await kubectl(['get', 'job', JOB, '-o', 'jsonpath={.metadata.uid}'])).trim();
    const selector = `batch.kubernetes.io/controller-uid=${uid}`;
    const outcome =
      n > 1
        ? await runRunners(cell, { n, kubectl, kubectlFlags, cellDir, signal, selector, engine })
        : await runSingle(cell, { kubectl, kubectlFlags, cellDir, signal, selector, engine });
    return { ...outcome, format: engine.format };
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
    'the k6 pod to be created',
  );
  const exitCode = await waitFor(
    () => readExit(kubectlFlags, pod, signal),
    k6Budget(cell.scenario) + 60_000,
    'k6 to finish in the cluster',
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
  const deadline = Date.now() + k6Budget(cell.scenario) + 60_000;
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
    `${n} k6 runner pods to run`,
  ).catch((err) => {
    throw new RunnerProblem(`k6 runners never all started: ${err.message}`);
  });
  await waitFor(
    async () => {
      const up = await Promise.all(pods.map((p) => exec(kubectlFlags, p.name, engine.ready, signal)));
      return up.every((r) => r.code === 0) ? true : null;
    },
    60_000,
    'every k6 runner to be paused and ready',
  );
  return pods;
}

// Each runner's k6 exit code, polled once a second until all have one or the deadline.
async function runnerExits(pods, { deadline, kubectl, kubectlFlags, signal, name }) {
  const exits = new Array(pods.length).fill(null);
  while (exits.some((e) => e === null)) {
    if (Date.now() > deadline)
      throw new RunnerProblem(`k6 runners did not finish in time: ${missing(exits, pods, name)}`);
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
  throw new InfraError(`in-cluster k6: timed out waiting for ${what}`);
}

// Binary-safe: kubectl exec's stdout straight into the file, flushed before we go on.
async function copyOut(kubectlFlags, pod, from, to) {
  const r = await runToFile(['kubectl', ...kubectlFlags, '-n', NAMESPACE, 'exec', pod, '--', 'cat', from], to, {
    timeoutMs: 120_000,
  });
  if (r.code !== 0) throw failure(`in-cluster k6: cannot copy ${from} out of ${pod}`, r);
}
