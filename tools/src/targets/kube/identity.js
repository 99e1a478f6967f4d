// What a measurement measured: the cluster (kube-system's uid: a re-created cluster has
// a new one), the backend namespace and the controller pods. Taken before and after
// each measurement: if any went away or was replaced in between, the numbers describe
// a target that no longer exists (a deleted kind cluster answers every request with
// "refused"), so the measurement is an infra error, never a result.
import { InfraError } from '../../errors.js';
import { run } from '../../exec/run.js';
import { INGRESS_NAMESPACE, NAMESPACE } from './context.js';

export async function targetIdentity({ kubectlFlags, podSelector, namespace = INGRESS_NAMESPACE }) {
  const get = async (what, ...args) => {
    const r = await run(['kubectl', ...kubectlFlags, ...args], { timeoutMs: 30_000 });
    if (r.code !== 0) throw gone(`${what} cannot be read (kubectl exit ${r.code})`, r);
    return r.stdout.trim();
  };
  const jsonpath = '-o=jsonpath={.metadata.uid}';
  return {
    cluster: await get('the cluster', 'get', 'namespace', 'kube-system', jsonpath),
    backend: await get(`namespace ${NAMESPACE}`, 'get', 'namespace', NAMESPACE, jsonpath),
    controller: (
      await get(
        'the controller pods',
        '-n',
        namespace,
        'get',
        'pods',
        '-l',
        podSelector,
        '-o=jsonpath={.items[*].metadata.uid}',
      )
    )
      .split(/\s+/)
      .filter(Boolean)
      .sort()
      .join(' '),
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

const NAMES = { cluster: 'the cluster', backend: `namespace ${NAMESPACE}`, controller: 'the controller pods' };

function gone(message, r) {
  return new InfraError(message, { details: r.output.trim().split('\n').slice(-3) });
}
