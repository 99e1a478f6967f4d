// A measurement whose target vanished or was replaced is an infra error naming what
// went away (issue: a kind cluster deleted between repetitions was recorded as 6001
// requests, all refused). kubectl is faked: this tests the orchestration only.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkTargetUnchanged, targetIdentity } from '../../src/targets/kube/identity.js';
import { InfraError } from '../../src/errors.js';
import { withFakeTool } from '../helpers/fake-tool.js';

// Answers from env: FAKE_CLUSTER (kube-system uid, or "gone"), FAKE_PODS (controller uids).
const FAKE = `#!/bin/sh
[ "$FAKE_CLUSTER" = gone ] && { echo 'The connection to the server 127.0.0.1:6443 was refused' >&2; exit 1; }
case "$*" in
  *"namespace kube-system"*) printf %s "$FAKE_CLUSTER" ;;
  *"namespace tailgate "*|*"namespace tailgate -"*) printf %s ns-1 ;;
  *pods*) printf %s "$FAKE_PODS" ;;
esac
`;
const args = { kubectlFlags: ['--context', 'kind-x'], podSelector: 'app=ctl' };
const at = (env) => withFakeTool('kubectl', FAKE, env, () => targetIdentity(args));
const check = (before, env) =>
  withFakeTool('kubectl', FAKE, env, () => checkTargetUnchanged(before, args).then(() => 'unchanged'));

test('target identity: the same cluster and pods pass; a deleted, re-created cluster or a replaced controller pod is an infra error', async () => {
  const before = await at({ FAKE_CLUSTER: 'c-1', FAKE_PODS: 'p-2 p-1' });
  assert.deepEqual(before, { cluster: 'c-1', backend: 'ns-1', controller: 'p-1 p-2' });
  assert.equal(await check(before, { FAKE_CLUSTER: 'c-1', FAKE_PODS: 'p-1 p-2' }), 'unchanged');

  const gone = await check(before, { FAKE_CLUSTER: 'gone' }).catch((e) => e);
  assert.ok(gone instanceof InfraError);
  assert.match(gone.message, /went away during the measurement: the cluster cannot be read/);

  const recreated = await check(before, { FAKE_CLUSTER: 'c-2', FAKE_PODS: 'p-3' }).catch((e) => e);
  assert.ok(recreated instanceof InfraError);
  assert.match(recreated.message, /replaced during the measurement \(the cluster, the controller pods\)/);

  const pod = await check(before, { FAKE_CLUSTER: 'c-1', FAKE_PODS: 'p-1 p-9' }).catch((e) => e);
  assert.match(pod.message, /\(the controller pods\)/);

  // A duet: the head's release is read in the same call, the cluster and backend once.
  const duet = { ...args, head: { podSelector: 'app=ctl', namespace: 'tailgate-ingress-b' } };
  const both = await withFakeTool('kubectl', FAKE, { FAKE_CLUSTER: 'c-1', FAKE_PODS: 'p-1' }, () =>
    targetIdentity(duet),
  );
  assert.deepEqual(both, { cluster: 'c-1', backend: 'ns-1', controller: 'p-1', head: 'p-1' });
  const replaced = await withFakeTool('kubectl', FAKE, { FAKE_CLUSTER: 'c-1', FAKE_PODS: 'p-2' }, () =>
    checkTargetUnchanged(both, duet).catch((e) => e),
  );
  assert.match(replaced.message, /\(the controller pods, the head's controller pods\)/);
});
