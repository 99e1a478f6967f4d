// What a measurement measured: the cluster (kube-system's uid: a re-created cluster has
// a new one), the backend namespace and the controller pods. Taken before and after
// each measurement: if any went away or was replaced in between, the numbers describe
// a target that no longer exists (a deleted kind cluster answers every request with
// "refused"), so the measurement is an infra error, never a result.
import { InfraError } from '../../errors.js';
import { run } from '../../exec/run.js';
import { NAMESPACE } from './context.js';
import { controllerPodsArgv } from './resources.js';

// `head`: a duet's second release ({podSelector, namespace}), watched the same way.
export async function targetIdentity({ kubectlFlags, podSelector, namespace, head = null }) {
  const read = async (what, argv) => {
    const r = await run(argv, { timeoutMs: 30_000 });
    if (r.code !== 0) throw gone(`${what} cannot be read (kubectl exit ${r.code})`, r);
    return r.stdout.trim();
  };
  const uid = (what, ...args) => read(what, ['kubectl', ...kubectlFlags, ...args, '-o=jsonpath={.metadata.uid}']);
  const pods = async (what, side) =>
    (await read(what, controllerPodsArgv({ kubectlFlags, ...side }, '{.items[*].metadata.uid}')))
      .split(/\s+/)
      .filter(Boolean)
      .sort()
      .join(' ');
  return {
    cluster: await uid('the cluster', 'get', 'namespace', 'kube-system'),
    backend: await uid(`namespace ${NAMESPACE}`, 'get', 'namespace', NAMESPACE),
    controller: await pods(NAMES.controller, { podSelector, namespace }),
    ...(head ? { head: await pods(NAMES.head, head) } : {}),
  };
}

/** Throws InfraError naming what went away or was replaced since `before`. */
export async function checkTargetUnchanged(before, args) {
  let after;
  try {
    after = await targetIdentity(args);
  } catch (err) {
    throw new InfraError(`the target went away during the measurement: ${err.message}`, { details: err.details });
  }
  const changed = Object.keys(before).filter((k) => before[k] !== after[k]);
  if (changed.length)
    throw new InfraError(
      `the target was replaced during the measurement (${changed.map((k) => NAMES[k]).join(', ')}): its numbers describe no target that exists now`,
    );
}

const NAMES = {
  cluster: 'the cluster',
  backend: `namespace ${NAMESPACE}`,
  controller: 'the controller pods',
  head: "the head's controller pods",
};

function gone(message, r) {
  return new InfraError(message, { details: r.output.trim().split('\n').slice(-3) });
}
