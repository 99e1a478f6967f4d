// SIGKILL a random pod every `every`; a replacement starts after `replaceAfter`,
// like a ReplicaSet noticing the loss (the AKS report's pod deletions, abruptly).
// Durations as written; the schedule adds their milliseconds (config/normalise.js faultTiming).
export const defaults = Object.freeze({ replaceAfter: '1s' });

// Its actions are pod-killed events, each hitting both sides of a duet at once: the gate
// tests such a cell's failover kill by kill (compare/failover.js).
export const killsPods = true;

export function kubeCommand(f, kubectl) {
  return { every: f.every, argv: kubectl('delete', 'pod', '<random backend pod>', '--grace-period=0', '--force') };
}

export async function run(f, { pods, pause, signal }) {
  const { every, replaceAfter } = f.ms;
  const replacements = [];
  while (!signal.aborted) {
    await pause(every);
    if (signal.aborted) break;
    const victim = pods.random();
    if (!victim) continue;
    await pods.remove(victim, 'kill');
    replacements.push(
      (async () => {
        await pause(replaceAfter);
        if (!signal.aborted) await pods.add();
      })(),
    );
  }
  await Promise.all(replacements);
}
