// A tuning's unsafe pod sysctls are checked against the kubelets' own configuration
// before the install (a fake kubectl stands in for the API server).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadBench } from '../../src/config/load.js';
import { planMatrix } from '../../src/plan/plan.js';
import { dryRun } from '../../src/targets/kube/driver.js';
import { checkKubeletSysctls, unsafeSysctls } from '../../src/targets/kube/sysctls.js';
import { withFakeTool } from '../helpers/fake-tool.js';
import { scratchDir } from '../helpers/scratch.js';

const ROOT = new URL('../../../', import.meta.url).pathname;
const catalog = (...p) => join(ROOT, 'charts', 'controllers', ...p);

test('sysctls: the unsafe ones a tuning sets, wherever its chart keeps them; safe ones need no allowlist', () => {
  assert.deepEqual(unsafeSysctls([catalog('traefik', 'values.yaml')]), []);
  assert.deepEqual(unsafeSysctls([catalog('traefik', 'values.yaml'), catalog('traefik', 'overlays', 'tuned.yaml')]), [
    'net.core.somaxconn',
  ]);
  assert.deepEqual(unsafeSysctls([catalog('envoy-gateway', 'overlays', 'tuned.yaml')]), ['net.core.somaxconn']);
  const dir = scratchDir('tg-sysctl-');
  writeFileSync(
    join(dir, 'v.yaml'),
    'pod:\n  securityContext:\n    sysctls:\n      - { name: net.ipv4.ip_local_port_range, value: "1024 65535" }\n      - { name: net.core.somaxconn, value: "1" }\n      - { name: net.ipv4.tcp_max_syn_backlog, value: "1" }\n',
  );
  assert.deepEqual(unsafeSysctls([join(dir, 'v.yaml')]), ['net.core.somaxconn', 'net.ipv4.tcp_max_syn_backlog']);
});

test('sysctls: the plan checks the kubelets before installing a tuning that sets one, not before one that does not', () => {
  const cwd = process.cwd();
  process.chdir(ROOT);
  try {
    const cfg = loadBench('tools/test/fixtures/kind/bench.yaml');
    const text = dryRun(planMatrix(cfg, 'e2e-tuning', { controllers: ['traefik'], repetitions: 1 }), {});
    const check = text.indexOf('check that the kubelets allow net.core.somaxconn (set by tuning "tuned")');
    assert.ok(check > 0, text);
    assert.ok(
      check > text.indexOf('tuning "default"') && check < text.indexOf('install traefik 41.3.0 with tuning "tuned"'),
    );
    assert.equal(text.match(/check that the kubelets allow/g).length, 1);
  } finally {
    process.chdir(cwd);
  }
});

const FAKE = `#!/bin/sh
case "$*" in
  *"get nodes -l ingress-ready=true"*) printf 'kind-worker' ;;
  *"get nodes"*) printf 'kind-worker kind-control-plane' ;;
  *configz*)
    [ -n "$FAKE_FORBIDDEN" ] && { echo 'Error from server (Forbidden): nodes "kind-worker" is forbidden: User "ci" cannot get resource "nodes/proxy"' >&2; exit 1; }
    echo 'W1123 some client warning' >&2
    printf '%s' "$FAKE_CONFIGZ" ;;
esac
`;

async function check(env) {
  const lines = [];
  return withFakeTool('kubectl', FAKE, env, async () => {
    try {
      await checkKubeletSysctls((...a) => ['kubectl', '--context', 'x', ...a], ['net.core.somaxconn'], {
        tuning: 'tuned',
        log: (m) => lines.push(m),
      });
      return { ok: true, lines };
    } catch (err) {
      return { ok: false, err, lines };
    }
  });
}

const configz = (allowed) => JSON.stringify({ kubeletconfig: { allowedUnsafeSysctls: allowed } });

test('sysctls: a kubelet that allows the sysctl (by name or prefix) passes; one that does not fails at once saying what to change', async () => {
  assert.ok((await check({ FAKE_CONFIGZ: configz(['net.core.somaxconn']) })).ok);
  assert.ok((await check({ FAKE_CONFIGZ: configz(['net.core.*']) })).ok);
  const r = await check({ FAKE_CONFIGZ: JSON.stringify({ kubeletconfig: {} }) });
  assert.equal(r.ok, false);
  assert.equal(r.err.exitCode, 4);
  assert.match(
    r.err.message,
    /tuning "tuned" sets net\.core\.somaxconn on the controller's pods, which the kubelet of node kind-worker does not allow: the pods would be rejected with SysctlForbidden/,
  );
  assert.match(
    r.err.details.join('\n'),
    /command: kubectl --context x get --raw \/api\/v1\/nodes\/kind-worker\/proxy\/configz/,
  );
  assert.match(
    r.err.details.join('\n'),
    /allowedUnsafeSysctls: \[net\.core\.somaxconn\]; clusters\/single\.yaml shows it for kind/,
  );
});

test('sysctls: a kubelet configuration the user may not read is a warning, not a failure', async () => {
  const r = await check({ FAKE_FORBIDDEN: '1' });
  assert.ok(r.ok);
  assert.match(
    r.lines.join('\n'),
    /cannot read node kind-worker's kubelet configuration \(Error from server \(Forbidden\).*\): sysctls not checked there/,
  );
});
