// A Deployment rollout: replace every pod, maxSurge new ones ahead of the old or
// maxUnavailable old ones ahead of the new (Shopify's report: deploys under load).
export const defaults = Object.freeze({ maxSurge: 1, maxUnavailable: 0 });

/** On a cluster the backend Deployment's own strategy does the rollout (targets/kube/steps/cell.js). */
export function deploymentStrategy(f) {
  return { maxSurge: f.maxSurge ?? defaults.maxSurge, maxUnavailable: f.maxUnavailable ?? defaults.maxUnavailable };
}

export function kubeCommand(f, kubectl) {
  return { every: f.every ?? 'once', argv: kubectl('rollout', 'restart', 'deployment/backend') };
}

export async function run(f, { pods, pause, signal }) {
  const [surge, unavailable] = [f.maxSurge, f.maxUnavailable];
  const every = f.ms.every ?? null;
  do {
    // On Kubernetes the Deployment controller performs the rollout itself.
    if (pods.rolloutRestart) await pods.rolloutRestart();
    else await rolloutOnce(pods, surge, unavailable, signal);
    if (every) await pause(every);
  } while (every && !signal.aborted);
}

async function rolloutOnce(pods, surge, unavailable, signal) {
  const old = pods.endpoints().map((e) => e.name);
  const step = Math.max(1, surge + unavailable);
  while (old.length && !signal.aborted) {
    const batch = old.splice(0, step);
    if (surge > 0) for (let i = 0; i < Math.min(surge, batch.length); i++) await pods.add();
    await Promise.all(batch.map((name) => pods.remove(pods.byName(name), 'graceful')));
    if (surge === 0) for (let i = 0; i < batch.length; i++) await pods.add();
  }
}
