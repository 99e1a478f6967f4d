// tls: true terminates TLS 1.3 at the proxy with a per-cell self-signed certificate.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import { runLocal } from '../helpers/local-run.js';

for (const variant of ['nginx-dynamic', 'haproxy-runtime']) {
  test(`tls: ${variant} serves the scenario over TLS 1.3`, { timeout: 30_000 }, async () => {
    const {
      dir,
      run,
      result: r,
    } = await runLocal({
      controller: { variant },
      scenario: { script: 'steady', rate: 100, duration: '2s', replicas: 1, tls: true },
    });
    assert.match(run.url, /^https:\/\//);
    const config = readFileSync(join(dir, 'proxy', variant.startsWith('nginx') ? 'nginx.conf' : 'haproxy.cfg'), 'utf8');
    assert.match(config, /TLSv1\.3/);
    assert.ok(r.requests.total >= 180);
    assert.equal(r.errors.total, 0);
  });
}
