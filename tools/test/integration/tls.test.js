// tls: true terminates TLS 1.3 at the proxy with a per-cell self-signed certificate.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ingest } from '../../src/ingest/ingest.js';
import { runCell } from '../../src/targets/local/driver.js';
import { makeCell } from '../helpers/cells.js';

for (const variant of ['nginx-dynamic', 'haproxy-runtime']) {
  test(`tls: ${variant} serves the scenario over TLS 1.3`, { timeout: 30_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tg-tls-'));
    const run = await runCell({ cell: makeCell({ controller: { variant }, scenario: { script: 'steady', rate: 100, duration: '2s', replicas: 1, tls: true } }), cellDir: dir });
    assert.match(run.url, /^https:\/\//);
    const config = readFileSync(join(dir, 'proxy', variant.startsWith('nginx') ? 'nginx.conf' : 'haproxy.cfg'), 'utf8');
    assert.match(config, /TLSv1\.3/);
    const r = await ingest({ k6Output: join(dir, 'k6.json.gz'), meta: { rate: 100, durationMs: 2000 } });
    assert.ok(r.requests.total >= 180);
    assert.equal(r.errors.total, 0);
  });
}
