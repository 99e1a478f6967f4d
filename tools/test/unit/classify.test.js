import assert from 'node:assert/strict';
import { test } from 'node:test';
import { classify } from '../../src/ingest/classify.js';

test('classify: k6 transport error codes', () => {
  assert.equal(classify('0', '1050', 'request timeout'), 'timeout');
  assert.equal(classify('0', '1211', 'dial i/o timeout'), 'timeout');
  assert.equal(classify('0', '1212', 'dial: connection refused'), 'refused');
  assert.equal(classify('0', '1220', 'read: connection reset by peer'), 'reset');
  assert.equal(classify('0', '1000', 'EOF'), 'reset');
  assert.equal(classify('0', '1000', 'something else'), 'transport');
});

test('classify: HTTP statuses', () => {
  assert.equal(classify('200'), null);
  assert.equal(classify('301'), null);
  assert.equal(classify('404'), 'http4xx');
  assert.equal(classify('500'), 'http5xx');
  assert.equal(classify('502', '1502'), 'http502');
  assert.equal(classify('503', '1503'), 'http503');
  assert.equal(classify('504', '1504'), 'http504');
});
