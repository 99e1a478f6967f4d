import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { test } from 'node:test';
import { waitHttp } from '../../src/targets/kube/builtins.js';

test('waitHttp sends the Host header the Ingress routes by, and reports the last answer on timeout', async () => {
  const srv = createServer((req, res) => {
    res.statusCode = req.headers.host === 'bench.local' ? 200 : 404;
    res.end();
  });
  await new Promise((r) => srv.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${srv.address().port}/healthz`;
  try {
    await waitHttp(url, 'bench.local', 3000);
    await assert.rejects(waitHttp(url, 'other.local', 1200), /within 1\.2s: last HTTP 404/);
  } finally {
    srv.close();
  }
});
