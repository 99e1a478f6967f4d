// A gate's default limits are written once, in config/defaults.js GATE_DEFAULTS:
// maxSharedDroppedRatio's 0.02 was once also a literal in compare/validity.js and
// compare/gate.js. The schema cannot import it, so where its descriptions name a default
// (what editors show), they must say GATE_DEFAULTS's; no module writes one of its own.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { test } from 'node:test';
import { GATE_DEFAULTS } from '../../src/config/defaults.js';
import { sharedDropLimit } from '../../src/compare/validity.js';
import { modules, SRC } from '../helpers/stages.js';

const schema = JSON.parse(readFileSync(new URL('../../../schemas/bench.schema.json', import.meta.url), 'utf8'));

/** [path under gate, the number a description gives as its default] for every such field. */
function describedDefaults(node, path = []) {
  const out = [];
  const m = /\(default (\d+(?:\.\d+)?)\)/.exec(node.description ?? '');
  if (m && path.length) out.push([path, Number(m[1])]);
  for (const [k, p] of Object.entries(node.properties ?? {})) out.push(...describedDefaults(p, [...path, k]));
  return out;
}

test("gate defaults: the schema's descriptions name GATE_DEFAULTS's numbers", () => {
  const named = describedDefaults(schema.definitions.gate);
  assert.ok(
    named.some(([p]) => p.join('.') === 'validity.maxSharedDroppedRatio'),
    'maxSharedDroppedRatio says its default',
  );
  for (const [path, value] of named)
    assert.equal(
      path.reduce((o, k) => o?.[k], GATE_DEFAULTS),
      value,
      `schemas/bench.schema.json gate.${path.join('.')}`,
    );
});

test('gate defaults: no module but config/defaults.js writes a dropped-ratio limit', () => {
  const own = [];
  for (const f of modules()) {
    const rel = relative(SRC, f);
    if (rel === 'config/defaults.js') continue;
    const text = readFileSync(f, 'utf8');
    // A fraction (0.02, 0.001): 1 is validity.js's deliberate "no limit" for a head-held run.
    if (/DroppedRatio\s*(?::|\?\?|\|\|)\s*0?\.\d/.test(text)) own.push(rel);
  }
  assert.deepEqual(own, []);
  assert.equal(sharedDropLimit({}), GATE_DEFAULTS.validity.maxSharedDroppedRatio);
  assert.equal(sharedDropLimit({ maxSharedDroppedRatio: 0.05 }), 0.05);
});
