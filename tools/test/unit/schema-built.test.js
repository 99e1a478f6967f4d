// The package ships ajv's standalone code of each schema (tools/src/validators/) and
// schema.js loads that instead of ajv: it must accept and refuse exactly what a fresh
// compile does, with the same errors (schemaProblems words them from the errors' fields).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { builtValidator, compileValidator, schemaProblems, schemaValidator } from '../../src/schema.js';

const RESULT = 'tools/test/fixtures/runs/head/nginx-dynamic/default/churn/rep-1/result.json';

function variants(doc) {
  const edit = (f) => {
    const d = structuredClone(doc);
    f(d);
    return d;
  };
  return [
    doc,
    edit((d) => delete d.latency),
    edit((d) => (d.kind = 'other')),
    edit((d) => (d.meta.extra = 1)),
    edit((d) => (d.requests.total = 'many')),
    edit((d) => (d.meta.profile = 'Not A Name!')),
    edit((d) => (d.timeline = {})),
    edit((d) => (d.events = [{ ts: 'x' }])),
    edit((d) => (d.latency.percentiles.p99 = null)),
    {},
    [],
    null,
  ];
}

test('the built result validator accepts and refuses what ajv compiles, with the same errors', () => {
  const cached = builtValidator('result');
  assert.equal(
    typeof cached,
    'function',
    'no current validator in tools/src/validators (node tools/scripts/build-validators.js)',
  );
  assert.equal(schemaValidator('result'), cached);
  const compiled = compileValidator('result');
  const doc = JSON.parse(readFileSync(new URL(`../../../${RESULT}`, import.meta.url), 'utf8'));
  let refused = 0;
  for (const d of variants(doc)) {
    const ok = compiled(d);
    assert.equal(cached(d), ok);
    assert.deepEqual(cached.errors, compiled.errors);
    if (!ok) refused++;
  }
  assert.ok(refused >= 8, `${refused} variants refused`);
  assert.deepEqual(schemaProblems('result', doc), []);
});

test('the built bench validator words a bad config as ajv does', () => {
  const cached = builtValidator('bench');
  assert.equal(typeof cached, 'function');
  const compiled = compileValidator('bench');
  for (const d of [{}, { version: 1, bogus: true }, { scenarios: [{ name: 'Bad Name' }] }, { profiles: 3 }]) {
    assert.equal(cached(d), compiled(d));
    assert.deepEqual(cached.errors, compiled.errors);
  }
});
