// One direction of flow: config → plan → run → ingest → compare → report → publish, and
// history, the pipeline and the CLI above them. A module may import its own stage or an
// earlier one, never a later one, and no module imports itself back through others. The
// table is the architecture (docs/architecture.md): a file that does not fit it fails
// here, naming the import.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { ORDER, SRC, STAGES, modules, stageOf } from '../helpers/stages.js';

// Static and literal dynamic imports (a template with ${} is a plugin lookup: none here).
function importsOf(file) {
  const text = readFileSync(file, 'utf8');
  const specs = [
    ...text.matchAll(/(?:import|export)[^'"`;]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g),
  ];
  return specs.map((m) => resolve(dirname(file), m[1] ?? m[2]));
}

test('import flow: no module imports a later stage', () => {
  const against = [];
  for (const f of modules()) {
    const from = relative(SRC, f);
    const a = stageOf(from);
    assert.ok(a, `${from}: in no stage of the table`);
    for (const to of importsOf(f)) {
      const b = stageOf(relative(SRC, to));
      if (ORDER.indexOf(b) > ORDER.indexOf(a)) against.push(`${from} (${a}) → ${relative(SRC, to)} (${b})`);
    }
  }
  assert.deepEqual(against, [], 'imports against the flow');
});

test('import flow: no import cycle', () => {
  const graph = new Map(modules().map((f) => [f, importsOf(f).filter((t) => t.startsWith(SRC))]));
  const state = new Map();
  const cycles = [];
  const visit = (f, path) => {
    if (state.get(f) === 'done') return;
    if (state.get(f) === 'open') {
      cycles.push([...path.slice(path.indexOf(f)), f].map((x) => relative(SRC, x)).join(' → '));
      return;
    }
    state.set(f, 'open');
    for (const t of graph.get(f) ?? []) visit(t, [...path, f]);
    state.set(f, 'done');
  };
  for (const f of graph.keys()) visit(f, []);
  assert.deepEqual(cycles, [], 'import cycles');
});

test('import flow: the check can fail — a report module importing the pipeline is named', () => {
  assert.ok(ORDER.indexOf(stageOf('pipeline/run.js')) > ORDER.indexOf(stageOf('report/markdown.js')));
  assert.equal(stageOf('targets/kube/steps/layout.js'), 'run');
  assert.equal(stageOf('registry/target-rules.js'), 'registry');
  assert.equal(stageOf('targets/kube/driver.js'), 'run');
  assert.equal(stageOf('units.js'), 'foundation');
});

// A file listed as the exception to its folder's stage hides an arrow back up the flow
// (config → targets/rules.js was one): the table names folders, so it holds by folder.
test('import flow: the table names whole folders, no single file', () => {
  const files = STAGES.map(([p]) => p).filter((p) => p !== '' && !/^[a-z][\w-]*\/$/.test(p));
  assert.deepEqual(files, [], 'stage table entries that are not a top-level folder of tools/src');
});
