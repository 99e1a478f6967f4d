// One cell's measurement: the engine's command (the same builder its runner executes) and
// the fault commands the dry run shows.
import { engineShown } from '../../../engines/index.js';
import { cellLoad, duetSides, loadBudget } from '../../../engines/load.js';
import { faultModule } from '../../../faults/schedule.js';
import { faultTiming } from '../../../config/normalise.js';
import { jobManifestFor } from '../load-job-manifest.js';
import { INGRESS_NAMESPACE_B, NAMESPACE, rel } from '../context.js';

export function cellSteps(u, cell) {
  const { add, kubectl, url, urlB, head } = u;
  const s = cell.scenario;
  add({
    title: `${cell.id}: backend replicas = ${s.replicas}`,
    argv: kubectl('-n', NAMESPACE, 'scale', 'deployment/backend', `--replicas=${s.replicas}`),
  });
  // A rollout fault means the same surge/unavailability as on the local target (its
  // module's deploymentStrategy); without one, one pod ahead and none missing.
  const rollout = s.faults.map((x) => faultModule(x.type).deploymentStrategy?.(x)).find(Boolean);
  const strategy = rollout ?? { maxSurge: 1, maxUnavailable: 0 };
  add({
    title: `${cell.id}: backend rollout strategy maxSurge ${strategy.maxSurge}, maxUnavailable ${strategy.maxUnavailable}`,
    argv: kubectl(
      '-n',
      NAMESPACE,
      'patch',
      'deployment/backend',
      '--type=merge',
      '-p',
      JSON.stringify({ spec: { strategy: { type: 'RollingUpdate', rollingUpdate: strategy } } }),
    ),
  });
  add({
    timeoutMs: 320_000,
    title: `${cell.id}: wait for the backend rollout`,
    argv: kubectl('-n', NAMESPACE, 'rollout', 'status', 'deployment/backend', '--timeout=300s'),
  });
  for (const [x, who] of [[url, 'the ingress'], ...(urlB ? [[urlB, "the head's ingress"]] : [])])
    add({
      kind: 'preflight',
      timeoutMs: 90_000,
      title: `${cell.id}: wait until ${who} routes to the backend`,
      argv: ['tailgate-internal', 'wait-http', `${x}/healthz`, 'bench.local', '60s'],
      builtin: 'waitHttp',
      url: `${x}/healthz`,
      host: 'bench.local',
    });
  const where = s.loadFrom === 'cluster' ? ' as a Job inside the cluster' : '';
  const engine = engineShown(cell);
  // Alternate: the same command once per side, each against its own ingress alone.
  const shown = engine.shown(cell, cellLoad(cell), { url, urlB: cell.alternate ? null : urlB, rel });
  const sides = !urlB
    ? ''
    : cell.alternate
      ? ` on one side at a time, ${duetSides(cell).join(' then ')}: one ${engine.name} run per side, each with its own ingress URL (base ${url}, head ${urlB}) and fault schedule`
      : ` per side, requests alternating between base (${url}) and head (${urlB})`;
  add({
    kind: 'measure',
    timeoutMs: loadBudget(s) * (cell.alternate ? 2 : 1),
    title: `${cell.id}: ${s.routes ? `${s.routes} routes carried (applied, each answering), then ` : ''}${engine.name} ${s.script}${where} at ${s.rate ?? 1}/s${sides} for ${s.duration}${s.faults.length ? ` with ${s.faults.map((x) => x.type).join(', ')}` : ''}`,
    cell,
    url,
    urlB,
    headNamespace: head ? INGRESS_NAMESPACE_B : null,
    argv: shown.argv,
    ...(shown.env ? { env: shown.env } : {}),
    faultsShown: faultCommands(cell, kubectl),
    ...(s.loadFrom === 'cluster' ? { manifestShown: jobManifestFor(s, engine.name) } : {}),
  });
}

// Faults are driven live (random pods, on a clock); the dry run shows the kubectl
// command each action uses so a user can reproduce one by hand — from the fault's own
// module, so a new fault type cannot be shown as another.
export function faultCommands(cell, kubectl) {
  return cell.scenario.faults.map((f) =>
    faultModule(f.type).kubeCommand(faultTiming(f), (...args) => kubectl('-n', NAMESPACE, ...args)),
  );
}
