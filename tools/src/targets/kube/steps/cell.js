// One cell's measurement: the k6 command (the same builder run/k6.js executes) and the
// fault commands the dry run shows.
import { ROOT } from '../../../exec/tools.js';
import { cellLoad, duetSides, k6Args, k6Budget, k6Env } from '../../../run/k6.js';
import { attackArgs, attackPlan } from '../../../run/engines/vegeta-plan.js';
import { faultModule } from '../../../faults/schedule.js';
import { faultTiming } from '../../../config/normalise.js';
import { engineJobManifestFor } from '../job-engines.js';
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
  const sides = !urlB
    ? ''
    : cell.alternate
      ? ` on one side at a time, ${duetSides(cell).join(' then ')}: one k6 run per side, each with its own ingress URL (base ${url}, head ${urlB}) and fault schedule`
      : ` per side, requests alternating between base (${url}) and head (${urlB})`;
  add({
    kind: 'measure',
    timeoutMs: k6Budget(s) * (cell.alternate ? 2 : 1),
    title: `${cell.id}: ${s.routes ? `${s.routes} routes carried (applied, each answering), then ` : ''}${engineShown(cell)} ${s.script}${where} at ${s.rate ?? 1}/s${sides} for ${s.duration}${s.faults.length ? ` with ${s.faults.map((x) => x.type).join(', ')}` : ''}`,
    cell,
    url,
    urlB,
    headNamespace: head ? INGRESS_NAMESPACE_B : null,
    argv: engineShown(cell) === 'vegeta' ? vegetaArgv(cell) : k6Argv(cell),
    // Alternate: the same k6 once per side, each against its own ingress alone.
    ...(engineShown(cell) === 'vegeta'
      ? {}
      : { env: cell.alternate ? k6EnvShown(cell, url, null) : k6EnvShown(cell, url, urlB) }),
    faultsShown: faultCommands(cell, kubectl),
    ...(s.loadFrom === 'cluster' ? { manifestShown: engineJobManifestFor(s, engineShown(cell)) } : {}),
  });
}

// The engine a cell runs on, as far as the plan knows it. auto resolves when the run starts
// (k6 where its pinned release is installed, else Vegeta: run/engines/index.js); the dry run
// shows k6's commands for it, and `run --dry-run --engine vegeta` Vegeta's.
function engineShown(cell) {
  const e = cell.engine ?? cell.scenario.engine ?? 'auto';
  return e === 'auto' ? 'k6' : e;
}

// Vegeta's attacks, one after the other, as run/engines/vegeta.js runs them.
export function vegetaArgv(cell) {
  const cellDir = `results/<run>/${cell.id}`;
  const load = cellLoad(cell);
  return attackPlan(load).flatMap((a, i) => [
    ...(i ? ['&&'] : []),
    'vegeta',
    ...attackArgs(a, {
      scenario: load,
      targets: `${cellDir}/vegeta-targets.json`,
      output: `${cellDir}/vegeta-${i + 1}.bin`,
    }),
  ]);
}

// The dry run shows the very command run/k6.js executes (same builder), with the
// results folder and the script path written relative.
export function k6Argv(cell) {
  const cellDir = `results/<run>/${cell.id}`;
  return ['k6', ...k6Args(cell.scenario, cellDir).map((a) => (a.startsWith(ROOT) ? rel(a) : a))];
}

export function k6EnvShown(cell, url, urlB) {
  return k6Env(cellLoad(cell), { url, urlB, host: 'bench.local', summary: `results/<run>/${cell.id}/k6-summary.json` });
}

// Faults are driven live (random pods, on a clock); the dry run shows the kubectl
// command each action uses so a user can reproduce one by hand — from the fault's own
// module, so a new fault type cannot be shown as another.
export function faultCommands(cell, kubectl) {
  return cell.scenario.faults.map((f) =>
    faultModule(f.type).kubeCommand(faultTiming(f), (...args) => kubectl('-n', NAMESPACE, ...args)),
  );
}
