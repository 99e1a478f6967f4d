// Targets kind and cluster: plan-then-execute. The session walks the step list in
// order; a cell's turn runs every pending step up to its measurement. A failed
// setup step fails the cells of that controller (infra error) and jumps to its
// teardown; teardown steps always run, also on Ctrl-C.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { InfraError, InputError } from '../../errors.js';
import { cellLoad, duetSides, runK6Segments, sideUrls } from '../../run/k6.js';
import { EventLog } from '../../run/event-log.js';
import { measureWithFaults } from '../../run/measure.js';
import { deleteStaleClusters, waitHttp, waitRoute, writeKindConfig } from './builtins.js';
import { checkKubeletSysctls } from './sysctls.js';
import { unpackChart } from './chart-archive.js';
import { recordCluster } from '../../exec/registry.js';
import { INGRESS_NAMESPACE, INGRESS_NAMESPACE_B, kubeContext, targetFlags } from './context.js';
import { busyLine, freeHostPorts } from './host-ports.js';
import { repairDaemonTmpdirs } from './dockerd-tmpdir.js';
import { renderDryRun } from './dry-run.js';
import { run } from '../../exec/run.js';
import { commandLine } from '../../exec/command.js';
import { runStep } from './exec.js';
import { KubePods } from './pods.js';
import { KubeRoutes } from './routes.js';
import { ROUTE_FAULTS } from '../../faults/schedule.js';
import { resourceDelta, sampleControllerPods } from './resources.js';
import { runK6InCluster } from './k6-job.js';
import { catalogEntry } from './catalog.js';
import { captureEffectiveConfig } from './effective.js';
import { checkTargetUnchanged, targetIdentity } from './identity.js';
import { hostPortCount, planSteps } from './steps/layout.js';
import { loadedRoute } from './steps/backend.js';

export const name = 'kube';

// Steps that are not a command (a step's `builtin`): what each one does with the step.
const BUILTINS = {
  // Run by preflight before any cluster (and marked done); here for completeness.
  checkValues: (step, log) => checkValues(step, log),
  deleteStaleClusters: (step, log) => deleteStaleClusters('tailgate-', log),
  waitHttp: (step) => waitHttp(step.url, step.host),
  waitRoute: (step) => waitRoute(step.getArgv),
  unpackChart: (step) => unpackChart(step.archive, step.into, step.name),
  writeKindConfig: (step) => writeKindConfig(step.from, step.hostPort, step.to, step.extraPort),
  checkSysctls: (step, log) =>
    checkKubeletSysctls((...a) => [...step.kubectlArgv, ...a], step.sysctls, { tuning: step.tuning, log }),
};

export function dryRun(plan, opts) {
  const ctx = kubeContext({
    target: plan.matrix.target,
    runId: 'dryrun',
    kubeconfig: opts.kubeconfig,
    targetUrl: opts['target-url'] ?? (plan.matrix.target === 'cluster' ? 'http://<ingress-address>' : undefined),
    cluster: plan.matrix.cluster,
  });
  return renderDryRun(planSteps(plan, ctx), {
    header: `tailgate plan: matrix "${plan.matrixName}", target ${plan.matrix.target}, ${plan.cells.length} cells`,
  });
}

// kind's host ports: the first free ones from 18080, said when they are not the usual
// ones. A target URL given by hand keeps its port.
async function hostPortsFor(plan, opts, log) {
  if (opts['target-url'] || process.env.TAILGATE_TARGET_URL) return null;
  const count = hostPortCount(plan);
  let hp = await freeHostPorts(count);
  // A dead run's cluster holds its ports until the plan's sweep step: sweep first, so the
  // run keeps 18080 rather than moving past a cluster about to be deleted.
  if (hp.busy.length && (await deleteStaleClusters('tailgate-', (m) => log(`  ${m}`)))) hp = await freeHostPorts(count);
  if (hp.busy.length) log(`  ${busyLine(hp, 'this run takes')}`);
  return hp.ports;
}

export async function start(plan, { runDir, signal, log = console.log, opts = {} }) {
  const runId = runDir
    .split('/')
    .at(-1)
    .replace(/[^0-9a-z]/gi, '')
    .toLowerCase()
    .slice(-6);
  const ctx = kubeContext({
    target: plan.matrix.target,
    runId,
    runDir,
    kubeconfig: opts.kubeconfig,
    targetUrl: opts['target-url'],
    cluster: plan.matrix.cluster,
    hostPorts: plan.matrix.target === 'kind' ? await hostPortsFor(plan, opts, log) : null,
  });
  if (ctx.target === 'kind') for (const line of repairDaemonTmpdirs()) log(`  ${line}`);
  if (ctx.target === 'cluster' && !ctx.kubeconfig) throw new InputError('target "cluster" needs --kubeconfig <file>');
  if (!ctx.url)
    throw new InputError(
      'target "cluster" needs --target-url (where its ingress answers from this runner, e.g. http://10.0.0.5:80)',
    );
  const steps = planSteps(plan, ctx);
  let next = 0;
  const failed = new Map(); // controller -> error
  await preflight(steps, log);

  const execute = async (step) => {
    if (step.builtin) log(`  ${step.title} …`);
    if (step.kind === 'create' && step.cluster) recordCluster(step.cluster);
    if (step.builtin) {
      if (!Object.hasOwn(BUILTINS, step.builtin)) throw new Error(`no builtin step "${step.builtin}"`);
      return BUILTINS[step.builtin](step, log);
    }
    return runStep(step, { signal, log: (m) => log(`  ${m}`) });
  };

  return {
    async runCell({ cell, cellDir }) {
      while (next < steps.length) {
        const step = steps[next];
        if (step.kind === 'measure' && step.cell === cell) {
          next++;
          if (failed.has(cell.controllerName)) throw skipped(cell, failed.get(cell.controllerName));
          return measure(step, cell, cellDir);
        }
        next++;
        if (step.done) continue;
        if (step.kind !== 'teardown' && failed.has(step.controller)) continue;
        if (step.kind === 'measure') continue; // a cell the runner skipped
        try {
          await execute(step);
        } catch (err) {
          if (step.kind === 'teardown') log(`  teardown failed (continuing): ${err.message}`);
          else failed.set(step.controller, err);
        }
      }
      throw new InfraError(`no step found for ${cell.id}`);
    },
    async teardown() {
      for (; next < steps.length; next++) {
        const step = steps[next];
        if (step.kind !== 'teardown') continue;
        try {
          await runStep(step, { log: (m) => log(`  ${m}`) });
        } catch (err) {
          log(`  teardown failed: ${err.message}`);
        }
      }
    },
  };

  async function measure(step, cell, cellDir) {
    const entry = catalogEntry(cell.controllerName, cell.controller);
    const sampleArgs = { kubectlFlags: targetFlags(ctx, cell.controllerName).kubectl, podSelector: entry.podSelector };
    // A duet: the head's release in its own namespace, captured and watched the same way.
    const headEntry = step.urlB ? catalogEntry(cell.concurrent.name, cell.concurrent.controller) : null;
    const headArgs = headEntry
      ? { ...sampleArgs, podSelector: headEntry.podSelector, namespace: step.headNamespace }
      : null;
    await captureEffectiveConfig({ ...sampleArgs, spec: entry.effectiveConfig, cellDir });
    if (headArgs)
      await captureEffectiveConfig({ ...headArgs, spec: headEntry.effectiveConfig, cellDir, dirName: 'proxy-b' });
    const target = { ...sampleArgs, head: headArgs };
    const identity = await targetIdentity(target);
    // Alternate: each side's own events, pods and k6 run (measureAlternately).
    if (cell.alternate) return measureAlternately({ step, cell, cellDir, sampleArgs, headArgs, identity, target });
    const events = new EventLog(join(cellDir, 'events.jsonl'));
    const pods = new KubePods({ kubectlFlags: sampleArgs.kubectlFlags, events });
    await pods.refresh();
    const sample = () =>
      ctx.target === 'kind'
        ? Promise.all([sampleControllerPods(sampleArgs), headArgs && sampleControllerPods(headArgs)])
        : [null, null];
    const routes =
      cell.scenario.faults.some((f) => ROUTE_FAULTS.includes(f.type)) || cell.scenario.routes
        ? new KubeRoutes({
            kubectlFlags: sampleArgs.kubectlFlags,
            events,
            dir: cellDir,
            sides: routeSides(entry, headEntry, step),
          })
        : null;
    // Routes carried before the load (`routes: N`), their cost measured apart from it.
    if (cell.scenario.routes && ctx.target === 'kind')
      await routes.carry(cell.scenario.routes, (side) => sampleControllerPods(side === 'head' ? headArgs : sampleArgs));
    else if (cell.scenario.routes) await routes.carry(cell.scenario.routes, async () => null);
    const before = await sample();
    const startLoad = () =>
      cell.scenario.loadFrom === 'cluster'
        ? runK6InCluster(cell, { kubectlFlags: sampleArgs.kubectlFlags, cellDir, signal })
        : runK6Segments(cellLoad(cell), { cellDir, ...sidesOf(cell, step), host: 'bench.local', signal });
    let k6;
    try {
      k6 = await measureWithFaults({ scenario: cell.scenario, pods, routes, events, startLoad });
    } finally {
      await routes?.cleanup();
    }
    await checkTargetUnchanged(identity, target);
    const after = await sample();
    const resources = before[0] ? resourceDelta(before[0], after[0]) : null;
    const concurrent = headArgs
      ? { resources: [resources, before[1] && after[1] ? resourceDelta(before[1], after[1]) : null] }
      : null;
    return { k6, eventsFile: events.file, resources, ...(concurrent ? { concurrent } : {}) };
  }

  // Both releases installed, loaded one side at a time in the repetition's order (base,
  // head; head, base): each side its own k6 run at the scenario's rate, its own fault
  // schedule and events, its own CPU read from its own pods. Raw output under <cell>/<role>.
  async function measureAlternately({ step, cell, cellDir, sampleArgs, headArgs, identity, target }) {
    const sides = [];
    for (const role of duetSides(cell)) {
      const dir = join(cellDir, role);
      mkdirSync(dir, { recursive: true });
      const events = new EventLog(join(dir, 'events.jsonl'));
      const pods = new KubePods({ kubectlFlags: sampleArgs.kubectlFlags, events });
      // The second side starts where the first did: its kills replaced, its churn undone.
      if (sides.length) await pods.settle(cell.scenario.replicas);
      else await pods.refresh();
      const own = role === 'base' ? sampleArgs : headArgs;
      const url = role === 'base' ? step.url : step.urlB;
      const before = ctx.target === 'kind' ? await sampleControllerPods(own) : null;
      log(`  ${cell.id}: ${role} loaded alone (${url})`);
      const k6 = await measureWithFaults({
        scenario: cell.scenario,
        pods,
        events,
        startLoad: () => runK6Segments(cellLoad(cell), { cellDir: dir, url, urlB: null, host: 'bench.local', signal }),
      });
      const after = before ? await sampleControllerPods(own) : null;
      sides.push({ role, dir, k6, eventsFile: events.file, resources: before ? resourceDelta(before, after) : null });
    }
    await checkTargetUnchanged(identity, target);
    return { k6: sides[0].k6, alternate: sides };
  }
}

// Where a route fault's new routes go on each side and where that side answers (not the
// k6 order, which swaps every other pair): the base's class or Gateway, the head's own.
function routeSides(entry, headEntry, step) {
  const side = (who, cat, url, gateway, ingressClass) =>
    cat.gateway
      ? { side: who, url, gateway, loaded: loadedRoute(who, gateway.name) }
      : { side: who, url, ingressClass, loaded: loadedRoute(who, ingressClass) };
  return [
    side('base', entry, step.url, { name: entry.gateway?.name, namespace: INGRESS_NAMESPACE }, entry.ingressClass),
    ...(headEntry
      ? [
          side(
            'head',
            headEntry,
            step.urlB,
            { name: headEntry.duet?.gateway?.nameB, namespace: INGRESS_NAMESPACE_B },
            headEntry.duet?.ingressClassB,
          ),
        ]
      : []),
  ];
}

// A duet's sides swap every other pair (run/k6.js duetSides).
function sidesOf(cell, step) {
  if (!step.urlB) return { url: step.url, urlB: null };
  const [url, urlB] = sideUrls(cell, step.url, step.urlB);
  return { url, urlB };
}

/**
 * Before any cluster: every release's values against its chart (and, offline, the
 * archives unpacked for it). A refusal ends the run here, once, as bad input (exit 2).
 */
export async function preflight(steps, log = () => {}) {
  // Each release (every tuning, a duet's head) has its unpack step; an archive is
  // unpacked once per run.
  const unpacked = new Set();
  for (const step of steps.filter((s) => s.kind === 'check' || s.builtin === 'unpackChart')) {
    if (step.builtin !== 'unpackChart') await checkValues(step, log);
    else if (!unpacked.has(step.into)) {
      unpackChart(step.archive, step.into, step.name);
      unpacked.add(step.into);
    }
    step.done = true;
  }
}

async function checkValues(step, log) {
  log(`  ${step.title} …`);
  const r = await run(step.argv, { timeoutMs: step.timeoutMs });
  if (r.code === 0) return;
  // helm's own words (the chart's schema names the key and the rule); never a file's content.
  const lines = r.output
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !/^(coalesce\.go|WARNING)/.test(l))
    .slice(0, 8)
    .map((l) => l.slice(0, 300));
  // The rule first: helm's preamble names nothing the reader can act on.
  const rule = lines
    .join(' ')
    .replace(
      /^Error: values don't meet the specifications of the schema\(s\) in the following chart\(s\):\s*[\w.-]+:\s*/,
      '',
    )
    .replace(/^- /, '');
  throw new InputError(
    `chart ${step.chart ?? ''} refuses the values of ${step.release ?? 'the release'}: ${rule || `helm exit ${r.code}`} (values files, in helm's order: ${step.files.join(', ')})`,
    {
      details: [`command: ${commandLine(step.argv)}`],
    },
  );
}

function skipped(cell, err) {
  // The same words for every cell the failure skips, so the comment says them once.
  return new InfraError(`not measured: setup of ${cell.controllerName} failed: ${err.message}`, {
    details: err.details,
  });
}
