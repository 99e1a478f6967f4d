// The schema's enums are what editors complete and validate checks; the registries are
// what runs. They must name the same things: a fault, variant, target, script or cluster
// topology added to one and not the other fails here, naming both lists.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { test } from 'node:test';
import { FAULTS } from '../../src/faults/schedule.js';
import { TARGET_RULES } from '../../src/registry/target-rules.js';
import { TARGETS } from '../../src/targets/index.js';
import { VARIANTS } from '../../src/targets/local/variants/index.js';
import { FORMATS } from '../../src/ingest/formats.js';
import { ENGINE_NAMES } from '../../src/engines/index.js';

const ROOT = new URL('../../../', import.meta.url);
const schema = JSON.parse(readFileSync(new URL('schemas/bench.schema.json', ROOT), 'utf8'));
const defs = schema.definitions;
const sorted = (xs) => [...xs].sort();
const files = (dir, ext) =>
  readdirSync(new URL(dir, ROOT))
    .filter((f) => f.endsWith(ext) && f !== 'images.yaml')
    .map((f) => f.slice(0, -ext.length));

test('schema enums equal the registries: faults, local variants, targets, k6 scripts, cluster topologies, load engines', () => {
  const pairs = {
    'fault types (faults/schedule.js FAULTS)': [defs.fault.properties.type.enum, Object.keys(FAULTS)],
    'local variants (targets/local/variants/index.js)': [
      defs.controller.allOf[0].then.properties.variant.enum,
      Object.keys(VARIANTS),
    ],
    'targets (registry/target-rules.js)': [defs.matrix.properties.target.enum, Object.keys(TARGET_RULES)],
    'target drivers (targets/index.js)': [defs.matrix.properties.target.enum, Object.keys(TARGETS)],
    'k6 scripts (k6/scenarios/)': [defs.scenario.properties.script.enum, files('k6/scenarios/', '.js')],
    'cluster topologies (clusters/)': [defs.matrix.properties.cluster.enum, files('clusters/', '.yaml')],
    'load engines (engines/index.js)': [defs.engine.enum, ENGINE_NAMES],
    'load tools ingest reads (ingest/formats.js; schemas/result.schema.json)': [
      JSON.parse(readFileSync(new URL('schemas/result.schema.json', ROOT), 'utf8')).properties.latency.properties.source
        .properties.tool.enum,
      Object.keys(FORMATS),
    ],
  };
  for (const [what, [inSchema, registered]] of Object.entries(pairs))
    assert.deepEqual(sorted(inSchema), sorted(registered), `${what}: schemas/bench.schema.json vs the registry`);
  for (const t of Object.values(TARGETS)) assert.equal(typeof t.driver, 'function');
});
