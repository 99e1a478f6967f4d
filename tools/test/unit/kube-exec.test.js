// A plan step waiting on objects a controller has yet to make: `kubectl wait -l` fails at
// once while nothing matches (the Envoy Gateway e2e failed so once); a step with
// retryWhileOutput asks again until its time is up. kubectl is faked.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { createCause, runStep } from '../../src/targets/kube/exec.js';
import { withFakeTool } from '../helpers/fake-tool.js';

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
  withFakeTool(
    'kubectl',
    FAKE,
    { FAKE_AFTER: String(after), FAKE_COUNT: join(mkdtempSync(join(tmpdir(), 'tg-')), 'n') },
    use,
  );

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
  const out = [
    'Creating cluster "tailgate-x" ...',
    ' ✗ Preparing nodes 📦',
    'ERROR: failed to create cluster: command "docker run --name x" failed with error: exit status 125',
    'Command Output: docker: Error response from daemon: Bind for 0.0.0.0:80 failed: port is already allocated.',
  ].join('\n');
  assert.equal(
    createCause(out),
    'failed to create cluster: command "docker run --name x" failed with error: exit status 125 (docker: Error response from daemon: Bind for 0.0.0.0:80 failed: port is already allocated.)',
  );
  assert.equal(
    createCause('[offline-kind 19:02:11] ERROR: cluster x: nodes not Ready within 300 s\n'),
    'cluster x: nodes not Ready within 300 s',
  );
  assert.equal(createCause('nothing useful'), null);
  assert.equal(createCause(`ERROR: ${'\u001b[31m'}${'y'.repeat(500)}`).length, 300);
});
