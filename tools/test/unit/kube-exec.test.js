// A plan step waiting on objects a controller has yet to make: `kubectl wait -l` fails at
// once while nothing matches (the Envoy Gateway e2e failed so once); a step with
// retryWhileOutput asks again until its time is up. kubectl is faked.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { createCause, runStep } from '../../src/targets/kube/exec.js';
import { withFakeTool } from '../helpers/fake-tool.js';
import { scratchDir } from '../helpers/scratch.js';

// Fails with "no matching resources found" until it has been called $FAKE_AFTER times.
const FAKE = `#!/bin/sh
n=$(cat "$FAKE_COUNT" 2>/dev/null || echo 0); n=$((n + 1)); echo $n > "$FAKE_COUNT"
[ "$n" -gt "$FAKE_AFTER" ] && { echo "deployment.apps/envoy condition met"; exit 0; }
echo "error: no matching resources found" >&2; exit 1
`;
const step = (extra) => ({
  title: 'wait for the proxy Deployment',
  argv: ['kubectl', 'wait'],
  timeoutMs: 20_000,
  ...extra,
});
const withFake = (after, use) =>
  withFakeTool('kubectl', FAKE, { FAKE_AFTER: String(after), FAKE_COUNT: join(scratchDir('tg-'), 'n') }, use);

test('kube steps: a wait on objects not made yet is asked again until they exist; without retryWhileOutput it fails at once', async () => {
  await withFake(2, async () => {
    const r = await runStep(step({ retryWhileOutput: /no matching resources found/ }));
    assert.equal(r.code, 0);
  });
  await withFake(2, async () => {
    await assert.rejects(runStep(step({})), /step failed: wait for the proxy Deployment/);
  });
});

test("kube steps: a cluster that cannot be created says kind's own reason in the message (the PR comment's line)", () => {
  // What kind and the offline wrapper printed here with 127.0.0.1:18080 held by another process.
  const out = [
    'Creating cluster "tgprobe" ...',
    ' ✗ Preparing nodes 📦 ',
    'Deleted nodes: ["tgprobe-control-plane"]',
    'ERROR: failed to create cluster: command "docker run --name tgprobe-control-plane --hostname tgprobe-control-plane --privileged --publish=127.0.0.1:18080:80/TCP offline-kind/node:v1.33.13" failed with error: exit status 125',
    '',
    'Command Output: WARNING: IPv4 forwarding is disabled. Networking will not work.',
    'f3a32433b18946b881053e9593d5fab518ad3671765f6d5dc66510046990bbf4',
    'docker: Error response from daemon: driver failed programming external connectivity on endpoint tgprobe-control-plane (14b36cea288571fbd8be2e354057a3db50a60aa432533372ee2bccdd3156630c): Error starting userland proxy: listen tcp4 127.0.0.1:18080: bind: address already in use.',
    '[offline-kind 22:04:32] ERROR: command failed (exit 1) at kind:70: "$REAL_KIND" create cluster --image "$image" "${args[@]}"',
  ].join('\n');
  assert.equal(
    createCause(out),
    'failed to create cluster: listen tcp4 127.0.0.1:18080: bind: address already in use (docker run tgprobe-control-plane, exit status 125)',
  );
  assert.equal(
    createCause(
      'ERROR: failed to create cluster: failed to init node with kubeadm: command "docker exec --privileged x-control-plane kubeadm init --v=6" failed with error: exit status 1\n',
    ),
    'failed to create cluster: failed to init node with kubeadm: docker exec x-control-plane failed (exit status 1)',
  );
  // The wrapper's own reasons count; its "command failed at kind:70" never does.
  assert.equal(
    createCause('[offline-kind 19:02:11] ERROR: cluster x: nodes not Ready within 300 s\n'),
    'cluster x: nodes not Ready within 300 s',
  );
  assert.equal(createCause('[offline-kind 19:02:11] ERROR: command failed (exit 1) at kind:70: "$REAL_KIND"'), null);
  assert.equal(createCause('nothing useful'), null);
  assert.equal(createCause(`ERROR: ${'\u001b[31m'}${'y'.repeat(500)}`).length, 300);
});
