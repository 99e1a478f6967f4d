// The AKS report's test 3: delete a random pod, pause (500 ms), repeat, while a
// sequential client sends one request at a time. Deletion is graceful (kubectl
// delete pod); the replacement starts at once, as a ReplicaSet would.
export const defaults = Object.freeze({ pause: '500ms', replaceAfter: '0s' });

/** What config/validate.js refuses of this fault beyond the schema: [{field, message}]. */
export function problems(f, scenario) {
  return scenario.script === 'sequential'
    ? []
    : [{ field: 'type', message: 'kill-pause (the AKS test 3) pairs with script "sequential"' }];
}

export function kubeCommand(f, kubectl) {
  return { every: f.pause, argv: kubectl('delete', 'pod', '<random backend pod>', '--wait=false') };
}

export async function run(f, { pods, pause, signal }) {
  const { pause: gap, replaceAfter } = f.ms;
  while (!signal.aborted) {
    const victim = pods.random();
    if (victim) {
      const removed = pods.remove(victim, 'graceful');
      await pause(replaceAfter);
      if (!signal.aborted) await pods.add();
      await removed;
    }
    await pause(gap);
  }
}
