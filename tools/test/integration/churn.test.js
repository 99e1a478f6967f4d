// The field reports' central finding, reproduced on real proxies: under replica
// churn, a dynamic endpoint update costs no more errors than a reload (retries off,
// so the data plane's own behaviour is what the client sees).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runLocal } from '../helpers/local-run.js';

const churn = {
  script: 'steady',
  rate: 300,
  duration: '8s',
  warmup: '1s',
  replicas: 4,
  faults: [{ type: 'churn', between: [4, 2], every: '2s' }],
};

async function errorsOf(variant) {
  const { run, result: r } = await runLocal({ controller: { variant, retries: 'off' }, scenario: churn });
  assert.ok(r.events.filter((e) => e.type === 'pod-terminating').length >= 2, 'churn happened');
  return { errors: r.errors.total, reloads: run.resources.reloads, byClass: r.errors.byClass };
}

test('churn: nginx-dynamic has no more errors than nginx-reload', { timeout: 90_000 }, async () => {
  const dynamic = await errorsOf('nginx-dynamic');
  const reload = await errorsOf('nginx-reload');
  assert.equal(dynamic.reloads, 0);
  assert.ok(reload.reloads >= 3, `reloads: ${reload.reloads}`);
  assert.ok(dynamic.errors <= reload.errors, `dynamic ${JSON.stringify(dynamic)} vs reload ${JSON.stringify(reload)}`);
});
