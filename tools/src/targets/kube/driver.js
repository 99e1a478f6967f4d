// Targets kind and cluster: plan-then-execute. The session walks the step list in
// order; a cell's turn runs every pending step up to its measurement. A failed
// setup step fails the cells of that controller (infra error) and jumps to its
// teardown; teardown steps always run, also on Ctrl-C.
import { InfraError, InputError } from '../../errors.js';
import { deleteStaleClusters, waitHttp, waitRoute, writeKindConfig } from './builtins.js';
import { checkKubeletSysctls } from './sysctls.js';
import { unpackChart } from '../../registry/chart-archive.js';
import { recordCluster } from '../../exec/registry.js';
import { kubeContext } from './context.js';
import { measure } from './measure.js';
import { busyLine, freeHostPorts } from './host-ports.js';
import { repairDaemonTmpdirs } from './dockerd-tmpdir.js';
import { renderDryRun } from './dry-run.js';
import { run } from '../../exec/run.js';
import { commandLine } from '../../exec/command.js';
import { runStep } from './exec.js';
import { hostPortCount, planSteps } from './steps/layout.js';
import { oneAtATime } from './one-at-a-time.js';

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
  // Before any load: a duet whose sides would not share the node alike runs one at a time.
  oneAtATime(plan, steps, log);

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
          return measure({ ctx, signal, log }, step, cell, cellDir);
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
    if (step.builtin !== 'unpackChart') step.rendered = await checkValues(step, log);
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
  if (r.code === 0) return r.stdout;
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
