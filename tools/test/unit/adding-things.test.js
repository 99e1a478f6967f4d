// docs/architecture.md "Adding things", held to the code: a fault type is its file, its line
// in faults/schedule.js and its type and fields in schemas/bench.schema.json — these tests
// fail when the registry and the schema disagree, when a fault module exports what the
// registry does not read, or when a module outside faults/ switches on a fault's type. A
// controller is its folder under charts/controllers (catalog-schema.test.js validates each
// controller.yaml). Load-tool readers: reader-contract.test.js.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { FAULT_DURATIONS, FAULTS, KILL_FAULTS, ROUTE_FAULTS } from '../../src/faults/schedule.js';
import { semanticProblems } from '../../src/config/validate.js';
import { modules, SRC } from '../helpers/stages.js';

const ROOT = new URL('../../../', import.meta.url).pathname;
const schema = JSON.parse(readFileSync(join(ROOT, 'schemas', 'bench.schema.json'), 'utf8'));
const fault = schema.definitions.fault;
const sorted = (xs) => [...xs].sort();
// Each type's fields: its `if: {type: const}` → `then` block.
const blocks = Object.fromEntries(fault.allOf.map((b) => [b.if.properties.type.const, b.then]));

// What faults/schedule.js documents a fault module may export, and what each is.
const EXPORTS = {
  run: 'function',
  kubeCommand: 'function',
  defaults: 'object',
  problems: 'function',
  editsRoutes: 'boolean',
  killsPods: 'boolean',
  usesBackendAlt: 'boolean',
  deploymentStrategy: 'function',
  countField: 'string',
};

test('fault registry = schema: the type enum, one block of fields per type', () => {
  assert.deepEqual(sorted(fault.properties.type.enum), sorted(Object.keys(FAULTS)), 'schema enum vs FAULTS');
  assert.equal(fault.allOf.length, Object.keys(blocks).length, 'one if/then block per type');
  assert.deepEqual(sorted(Object.keys(blocks)), sorted(Object.keys(FAULTS)), "the schema's blocks vs FAULTS");
});

test('each fault module exports run, kubeCommand and defaults, only what the registry reads, and fields its schema block has', () => {
  for (const [type, mod] of Object.entries(FAULTS)) {
    const fields = Object.keys(blocks[type].properties);
    for (const need of ['run', 'kubeCommand', 'defaults'])
      assert.ok(Object.hasOwn(mod, need), `faults: ${type} exports no ${need}`);
    for (const [name, value] of Object.entries(mod)) {
      assert.ok(
        Object.hasOwn(EXPORTS, name),
        `faults: ${type} exports ${name}, which nothing reads (faults/schedule.js)`,
      );
      assert.equal(typeof value, EXPORTS[name], `faults: ${type}'s ${name}`);
    }
    for (const k of Object.keys(mod.defaults))
      assert.ok(fields.includes(k), `faults: ${type}'s default ${k} is no field of its schema block`);
    if (mod.countField) assert.ok(fields.includes(mod.countField), `faults: ${type}'s countField`);
    // Route faults are made with `routes` (a cluster), pod faults with `pods`.
    assert.equal(Boolean(mod.editsRoutes), ROUTE_FAULTS.includes(type));
    assert.equal(Boolean(mod.killsPods), KILL_FAULTS.includes(type));
  }
});

test("FAULT_DURATIONS is every duration field of the schema's faults (config/normalise.js makes their ms)", () => {
  const durations = new Set();
  for (const then of Object.values(blocks))
    for (const [k, v] of Object.entries(then.properties)) if (v?.$ref === '#/definitions/duration') durations.add(k);
  durations.add('startAfter'); // every fault's, defaulted by faultTiming
  assert.deepEqual(sorted(FAULT_DURATIONS), sorted(durations));
});

test("no module outside faults/ switches on a fault's type (the registry's properties say it)", () => {
  // The route faults' edits on a cluster (add, remove, change) name their objects after the
  // fault: a route fault of a new kind of edit adds its edit there.
  const ALLOWED = ['targets/kube/routes.js'];
  const types = Object.keys(FAULTS);
  const found = [];
  for (const file of modules()) {
    const rel = relative(SRC, file);
    if (rel.startsWith('faults/') || ALLOWED.includes(rel)) continue;
    // Code only: comments, template text (bench.yaml examples) and kubectl's words (its
    // `rollout` subcommand) may name one.
    const code = readFileSync(file, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '')
      .replace(/`[^`]*`/g, '``')
      .replace(/^.*kubectl.*$/gm, '');
    for (const t of types) if (code.includes(`'${t}'`) || code.includes(`"${t}"`)) found.push(`${rel}: '${t}'`);
  }
  assert.deepEqual(found, [], 'a fault type named outside faults/: read a property of its module instead');
});

test("a fault's own checks run from its module, at the fault's path, as before", () => {
  const cfg = (s) => ({
    profiles: {},
    controllers: {},
    tunings: {},
    matrices: {},
    scenarios: { s: { script: 'steady', rate: 10, duration: '10s', warmup: '0s', replicas: 4, ...s } },
  });
  const messages = (s) => semanticProblems(cfg(s)).map((p) => `${p.path.join('.')}: ${p.message}`);
  assert.deepEqual(messages({ faults: [{ type: 'churn', between: [2, 2], every: '1s' }] }), [
    'scenarios.s.faults.0.between: the two replica counts must differ',
  ]);
  assert.deepEqual(messages({ faults: [{ type: 'kill-pause' }] }), [
    'scenarios.s.faults.0.type: kill-pause (the AKS test 3) pairs with script "sequential"',
  ]);
  assert.deepEqual(messages({ script: 'sequential', faults: [{ type: 'kill-pause' }] }), []);
  assert.deepEqual(
    messages({
      faults: [
        { type: 'route-add', routes: 11 },
        { type: 'route-change', changes: 9, every: '1s', startAfter: '2s' },
        { type: 'route-remove', routes: 10 },
      ],
    }),
    [
      "scenarios.s.faults.0.routes: 11 routes every 1s take 10s to make, not less than the scenario's duration 10s: fewer routes, a shorter every, or a longer duration",
      "scenarios.s.faults.1.changes: 9 changes every 1s take 10s to make, not less than the scenario's duration 10s: fewer changes, a shorter every, or a longer duration",
    ],
  );
  assert.deepEqual(messages({ faults: [{ type: 'pod-kill', every: '50ms' }] }), [
    'scenarios.s.faults.0.every: must be at least 100ms',
  ]);
});

test('every folder of charts/controllers is a catalog entry: its controller.yaml named as the folder, its values.yaml', () => {
  const dir = join(ROOT, 'charts', 'controllers');
  const folders = readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory());
  assert.ok(folders.length >= 5);
  for (const { name } of folders) {
    const file = join(dir, name, 'controller.yaml');
    // A folder without one is no entry at all (the catalog lists folders with one).
    assert.ok(existsSync(file), `charts/controllers/${name}: no controller.yaml`);
    assert.match(readFileSync(file, 'utf8'), new RegExp(`^name: ${name}$`, 'm'), `${file}: name`);
    assert.ok(existsSync(join(dir, name, 'values.yaml')), `charts/controllers/${name}: no values.yaml`);
  }
});
