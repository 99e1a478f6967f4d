// Reading the effective configuration from a pod, orchestration only: a fake kubectl
// (pods, exec, port-forward) and a real local HTTP server as the pod's admin API.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { test } from 'node:test';
import { captureEffectiveConfig } from '../../src/targets/kube/effective.js';
import { withFakeTool } from '../helpers/fake-tool.js';
import { scratchDir } from '../helpers/scratch.js';

const FAKE_KUBECTL = `#!/bin/sh
echo "kubectl $*" >> "$FAKE_LOG"
case "$*" in
  *"get pods"*) printf 'envoy-abc' ;;
  *port-forward*)
    [ -n "$FAKE_PF_FAIL" ] && { echo 'error: unable to forward port because pod is not running' >&2; exit 1; }
    echo "Forwarding from 127.0.0.1:$FAKE_ADMIN_PORT -> 19000"; exec sleep 30 ;;
  *"-- cat /etc/haproxy/haproxy.cfg"*)
    # kubectl's websocket client logs on stderr while the file streams on stdout
    echo 'E1123 16:27:31.485314 15906 websocket.go:297] Unknown stream id 1, discarding message' >&2
    i=0; while [ $i -lt 6000 ]; do echo "backend be$i"; echo "  http-reuse safe # padding to make the file large"; i=$((i+1)); done ;;
  *"-- cat /proc/sys/net/core/somaxconn"*)
    [ -n "$FAKE_HAS_CAT" ] || { echo 'exec: "cat": executable file not found in $PATH' >&2; exit 1; }
    echo 'E1123 16:27:31.485314 15906 websocket.go:297] Unknown stream id 1, discarding message' >&2; echo 4096 ;;
  *"get pod"*) printf '32768' ;;
esac
`;

async function capture(env, spec = { portForward: 19000, path: '/config_dump', file: 'envoy-config.json' }) {
  const seen = [];
  const server = createServer((req, res) => {
    seen.push(req.url);
    res.end('{"configs":[]}');
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  try {
    return await withFakeTool(
      'kubectl',
      FAKE_KUBECTL,
      { FAKE_ADMIN_PORT: String(server.address().port), ...env },
      async (bin) => {
        process.env.FAKE_LOG = join(bin, 'calls.log');
        const cellDir = scratchDir('tg-cell-');
        const file = await captureEffectiveConfig({
          kubectlFlags: ['--context', 'kind-x'],
          podSelector: 'app.kubernetes.io/name=envoy',
          spec,
          cellDir,
        });
        return { file, cellDir, seen, calls: readFileSync(join(bin, 'calls.log'), 'utf8') };
      },
    );
  } finally {
    server.close();
  }
}

test('effective config through a port-forward: the admin API read once, kubectl stopped, the sysctl from the pod spec where the image has no cat', async () => {
  const r = await capture({});
  assert.equal(readFileSync(r.file, 'utf8'), '{"configs":[]}');
  assert.deepEqual(r.seen, ['/config_dump']);
  assert.match(
    r.calls,
    /kubectl --context kind-x -n tailgate-ingress port-forward --address 127\.0\.0\.1 pod\/envoy-abc :19000/,
  );
  assert.equal(readFileSync(join(r.cellDir, 'proxy', 'sysctls.txt'), 'utf8'), 'net.core.somaxconn=32768\n');
});

test('effective config through a port-forward that fails: a note naming why, the cell goes on', async () => {
  const r = await capture({ FAKE_PF_FAIL: '1' });
  assert.equal(r.file, null);
  assert.ok(!existsSync(join(r.cellDir, 'proxy', 'envoy-config.json')));
  assert.match(
    readFileSync(join(r.cellDir, 'proxy', 'effective-config.txt'), 'utf8'),
    /could not read the effective configuration \(kubectl port-forward exited \(code 1\)\)/,
  );
});

test("effective config through kubectl exec: stdout only and whole (kubectl's stderr noise and a 300 KB config)", async () => {
  const r = await capture({ FAKE_HAS_CAT: '1' }, { exec: ['cat', '/etc/haproxy/haproxy.cfg'], file: 'haproxy.cfg' });
  const text = readFileSync(r.file, 'utf8');
  assert.ok(text.length > 300_000, `${text.length} characters kept`);
  assert.ok(
    text.startsWith('backend be0\n') &&
      text.endsWith('backend be5999\n  http-reuse safe # padding to make the file large\n'),
  );
  assert.doesNotMatch(text, /websocket|Unknown stream/);
  assert.equal(readFileSync(join(r.cellDir, 'proxy', 'sysctls.txt'), 'utf8'), 'net.core.somaxconn=4096\n');
});
