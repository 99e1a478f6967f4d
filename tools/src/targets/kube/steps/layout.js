// plan -> steps: the order of a plan's steps — one controller after another, or
// interleaved — and the host ports a kind run publishes. Each step is an argv (pasteable)
// with a timeout and a kind the executor treats differently: "create" may be retried
// (bounded), "measure" never is, "teardown" always runs. Pure: `tailgate run --dry-run`
// prints exactly this list, and golden tests pin it. The parts: cluster.js, backend.js,
// release.js, gateway.js, cell.js.
import { join } from 'node:path';
import { catalogEntry } from '../../../registry/catalog.js';
import { HOST_PORT, targetFlags } from '../context.js';
import { setupSteps, teardownSteps } from './cluster.js';
import { installSteps, duetHead, releaseSteps } from './release.js';
import { cellSteps } from './cell.js';

// One controller (a CI job per cell) has nothing to interleave with: the plain layout.
export const interleaved = (plan, byController) => Boolean(plan.matrix.interleave) && byController.size > 1;
/** Host ports a kind run of the plan publishes at once: one per cluster, two for a duet's. */
export function hostPortCount(plan) {
  const byController = groupBy(plan.cells, (c) => c.controllerName);
  const clusters = interleaved(plan, byController) ? byController.size : 1;
  return clusters * (plan.cells.some((c) => c.concurrent) ? 2 : 1);
}

export function planSteps(plan, ctx) {
  const steps = [];
  const byController = groupBy(plan.cells, (c) => c.controllerName);
  if (ctx.target === 'kind') {
    steps.push({
      timeoutMs: 120_000,
      controller: null,
      kind: 'cleanup',
      title: 'remove kind clusters left by earlier tailgate runs',
      argv: ['tailgate-internal', 'delete-stale-kind-clusters', 'tailgate-'],
      builtin: 'deleteStaleClusters',
    });
  }
  const interleave = interleaved(plan, byController);
  const units = [...byController].map(([controller, cells], index) =>
    controllerSteps({
      ctx,
      controller,
      cells,
      index,
      interleave,
      duet: Boolean(cells[0].concurrent),
      push: (s) => steps.push(s),
    }),
  );
  if (!interleave) {
    for (const u of units) {
      u.setup();
      for (const [tuning, tcells] of groupBy(u.cells, (c) => c.tuningName)) {
        u.install(tuning);
        for (const cell of tcells) u.cell(cell);
      }
      u.teardown();
    }
    return steps;
  }
  // interleave (kind): every cluster up at once; each tuning installed on every
  // controller, then its cells in the plan's order (repetition, scenario, controller).
  for (const u of units) u.setup();
  const unitOf = new Map(units.map((u) => [u.controller, u]));
  for (const [tuning, tcells] of groupBy(plan.cells, (c) => c.tuningName)) {
    for (const u of units) if (u.cells.some((c) => c.tuningName === tuning)) u.install(tuning);
    for (const cell of tcells) unitOf.get(cell.controllerName).cell(cell);
  }
  for (const u of units) u.teardown();
  return steps;
}

// The steps of one controller — its cluster or release, each tuning's install, each
// cell, its teardown — for planSteps to lay out one controller after another, or
// interleaved. With interleave each kind cluster maps its ingress to its own host port.
// A duet (cells with `concurrent`): the head's controller is a second release in the same
// cluster (its own namespace, IngressClass and host port), in front of the same backend
// pods, installed by the same release unit as the base.
export function controllerSteps({ ctx, controller, cells, index, interleave, duet, push }) {
  const cat = catalogEntry(controller, cells[0].controller);
  const f = targetFlags(ctx, controller);
  // Host ports in turn: each interleaved cluster its own, a duet's head the next one.
  const slot = interleave ? index * (duet ? 2 : 1) : 0;
  const hostPort = ctx.hostPorts[slot];
  const hostPortB = duet ? ctx.hostPorts[slot + 1] : null;
  // The topology file maps the ingress to HOST_PORT: any other port is a config of the run's.
  const ownConfig = interleave || duet || hostPort !== HOST_PORT;
  const u = {
    ctx,
    controller,
    cells,
    cat,
    duet,
    interleave,
    hostPort,
    hostPortB,
    ownConfig,
    add: (s) => push({ timeoutMs: 120_000, kind: 'setup', controller, ...s }),
    kubectl: (...a) => ['kubectl', ...f.kubectl, ...a],
    helm: (...a) => ['helm', ...a, ...f.helm],
    url: interleave ? `http://127.0.0.1:${hostPort}` : ctx.url,
    urlB: duet ? `http://127.0.0.1:${hostPortB}` : null,
    clusterConfig: ownConfig ? join(ctx.runDirShown, `kind-${controller}.yaml`) : ctx.clusterConfig,
    head: duet ? duetHead(cells[0].concurrent, cat) : null,
    headTuning: null, // the tuning the head's release has now
    backendStep: null, // the backend's install, where it must follow the controller's
  };
  u.release = (side, tuning, afterInstall) =>
    releaseSteps({ ctx, side, tuning, kubectl: u.kubectl, helm: u.helm, add: u.add, afterInstall });
  return {
    controller,
    cells,
    setup: () => setupSteps(u),
    install: (tuning) => installSteps(u, tuning),
    cell: (cell) => cellSteps(u, cell),
    teardown: () => teardownSteps(u),
  };
}

export function groupBy(xs, key) {
  const m = new Map();
  for (const x of xs) {
    const k = key(x);
    if (!m.has(k)) m.set(k, []);
    m.get(k).push(x);
  }
  return m;
}
