// The stages of tools/src in the flow's order (docs/architecture.md): the import-flow test
// and tools/scripts/code-shape.js read them here; the module list the source tests walk.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const SRC = new URL('../../src/', import.meta.url).pathname;

/** Every module under tools/src, as absolute paths. */
export function modules() {
  const out = [];
  const walk = (d) => {
    for (const e of readdirSync(d)) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith('.js')) out.push(p);
    }
  };
  walk(SRC);
  return out;
}

// [path prefix under tools/src, stage]; the longest matching prefix decides. Every prefix is
// a folder: a stage's files live in its own folders, so the flow holds by folder too.
export const STAGES = [
  ['', 'foundation'], // errors, names, numbers, normal, units, schema, github-output, version…
  ['exec/', 'foundation'], // processes
  ['result/', 'foundation'], // the files every stage exchanges: read, write, their shapes
  ['faults/', 'registry'], // what a fault is: config checks it, run drives it, ingest reads it
  ['registry/', 'registry'], // target rules, the controller catalog, the chart archive
  ['config/', 'config'],
  ['plan/', 'plan'],
  ['run/', 'run'],
  ['targets/', 'run'], // the drivers
  // the load engines, one folder each (plan, runner, reader, Job) and their registry: run
  // starts them, ingest reads their output through the registry
  ['engines/', 'run'],
  ['ingest/', 'ingest'],
  ['compare/', 'compare'],
  ['report/', 'report'],
  ['publish/', 'publish'],
  ['history/', 'history'],
  ['pipeline/', 'pipeline'],
  ['cli/', 'cli'],
];
export const ORDER = [
  'foundation',
  'registry',
  'config',
  'plan',
  'run',
  'ingest',
  'compare',
  'report',
  'publish',
  'history',
  'pipeline',
  'cli',
];

// '' is the top of tools/src only (files in no folder).
export const stageOf = (rel) =>
  STAGES.filter(([p]) => (p === '' ? !rel.includes('/') : rel.startsWith(p))).sort(
    (x, y) => y[0].length - x[0].length,
  )[0]?.[1];
