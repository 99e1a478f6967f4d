// One cell's measurement on kind or a cluster: the effective config captured, the target's
// identity checked before and after, the load (from the runner or a Job in the cluster)
// and the fault schedule on one clock, the controllers' CPU read around it; a duet's head
// the same way in its own namespace, and a duet loaded one side at a time
// (measureAlternately).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { duetSides, sideUrls } from '../../engines/load.js';
import { runLoad } from '../../engines/index.js';
import { EventLog } from '../../run/event-log.js';
import { measureWithFaults } from '../../run/measure.js';
import { ROUTE_FAULTS } from '../../faults/schedule.js';
import { INGRESS_NAMESPACE, INGRESS_NAMESPACE_B, targetFlags } from './context.js';
import { KubePods } from './pods.js';
import { KubeRoutes } from './routes.js';
import { resourceDelta, sampleControllerPods } from './resources.js';
import { runLoadInCluster } from './load-job.js';
import { catalogEntry } from '../../registry/catalog.js';
import { captureEffectiveConfig } from './effective.js';
import { checkTargetUnchanged, targetIdentity } from './identity.js';
import { loadedRoute } from './steps/backend.js';

/** session: { ctx, signal, log } of the driver's run; step: the cell's measure step. */
export async function measure({ ctx, signal, log }, step, cell, cellDir) {
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
  // Alternate: each side's own events, pods and load run (measureAlternately).
  if (cell.alternate)
    return measureAlternately({ ctx, signal, log }, { step, cell, cellDir, sampleArgs, headArgs, identity, target });
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
      ? runLoadInCluster(cell, { kubectlFlags: sampleArgs.kubectlFlags, cellDir, signal })
      : runLoad(cell, { cellDir, ...sidesOf(cell, step), host: 'bench.local', signal });
  let load;
  try {
    load = await measureWithFaults({ scenario: cell.scenario, pods, routes, events, startLoad });
  } finally {
    await routes?.cleanup();
  }
  await checkTargetUnchanged(identity, target);
  const after = await sample();
  const resources = before[0] ? resourceDelta(before[0], after[0]) : null;
  const concurrent = headArgs
    ? { resources: [resources, before[1] && after[1] ? resourceDelta(before[1], after[1]) : null] }
    : null;
  return { load, eventsFile: events.file, resources, ...(concurrent ? { concurrent } : {}) };
}

// Both releases installed, loaded one side at a time in the repetition's order (base,
// head; head, base): each side its own load run at the scenario's rate, its own fault
// schedule and events, its own CPU read from its own pods. Raw output under <cell>/<role>.
async function measureAlternately(
  { ctx, signal, log },
  { step, cell, cellDir, sampleArgs, headArgs, identity, target },
) {
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
    const load = await measureWithFaults({
      scenario: cell.scenario,
      pods,
      events,
      startLoad: () => runLoad(cell, { cellDir: dir, url, urlB: null, host: 'bench.local', signal }),
    });
    const after = before ? await sampleControllerPods(own) : null;
    sides.push({ role, dir, load, eventsFile: events.file, resources: before ? resourceDelta(before, after) : null });
  }
  await checkTargetUnchanged(identity, target);
  return { load: sides[0].load, alternate: sides };
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

// A duet's sides swap every other pair (engines/load.js duetSides).
function sidesOf(cell, step) {
  if (!step.urlB) return { url: step.url, urlB: null };
  const [url, urlB] = sideUrls(cell, step.url, step.urlB);
  return { url, urlB };
}
