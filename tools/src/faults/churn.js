// Scale between two replica counts every `every` (the OpenShift router test:
// 4 <-> 2 every 10 s). Scale-down deletes pods gracefully, as `kubectl scale` does.
export const defaults = Object.freeze({});

/** What config/validate.js refuses of this fault beyond the schema: [{field, message}]. */
export function problems(f) {
  return f.between[0] === f.between[1] ? [{ field: 'between', message: 'the two replica counts must differ' }] : [];
}

export function kubeCommand(f, kubectl) {
  return { every: f.every, argv: kubectl('scale', 'deployment/backend', `--replicas=<${f.between.join('|')}>`) };
}

export async function run(f, { pods, pause, signal }) {
  const { every } = f.ms;
  const [a, b] = f.between;
  let target = b;
  while (!signal.aborted) {
    await pause(every);
    if (signal.aborted) break;
    await pods.scaleTo(target, 'graceful');
    target = target === a ? b : a;
  }
}
