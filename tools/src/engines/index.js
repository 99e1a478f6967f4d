// The load engines, and which one a run uses. k6 is what GitHub's runners download (its
// release binary, checksum verified); Vegeta (MIT) runs wherever that release cannot be
// had — k6 is never built from its Go module, which is under the AGPL (docs/engines.md).
// Results name the engine and its version, so one engine's result never compares with the
// other's.
//
// This is the one list of engines: the runner (run/runner.js, the drivers), ingest
// (ingest/formats.js: each engine's reader), the kube driver (its in-cluster Job and the
// images a cluster loads), the dry run and the docs' table read it here, and no module
// outside engines/ imports one engine's files. An engine is one folder (engines/<name>/,
// its index.js the entry below: plan, runner, reader, Job, version probe); adding one is
// that folder, one line here, and passing tools/test/unit/engine-contract.test.js
// (docs/architecture.md).
import { join } from 'node:path';
import { probe, DEPENDENCIES } from '../exec/deps.js';
import { PINS } from '../version.js';
import { InputError } from '../errors.js';
import { cellLoad } from './load.js';
import { k6 } from './k6/index.js';
import { vegeta } from './vegeta/index.js';

/**
 * name -> {name, tool (its exec/deps.js entry), missing (what to do when it is not
 * installed), run(load, opts), shown(cell, load, {url, urlB, rel}) (the dry run),
 * reader: {read, what, sniff}, summaryCount(summary) | null, job: {image, configMaps, env,
 * podScript, files, copied, ready, release, finish}, version()}.
 */
export const ENGINES = Object.freeze(Object.fromEntries([k6, vegeta].map((e) => [e.name, withVersion(e)])));

export const ENGINE_NAMES = Object.freeze(['auto', ...Object.keys(ENGINES)]);

// An engine's version is its tools entry's (exec/deps.js: for a Vegeta built with `go
// install`, read from the build information in the binary), written as the pins are.
async function versionOf(name) {
  const v = (await probe(DEPENDENCIES.find((d) => d.name === name))).version;
  return v && !v.startsWith('v') ? `v${v}` : v;
}

function withVersion(engine) {
  return Object.freeze({ ...engine, version: () => versionOf(engine.tool) });
}

/** The engine a run chose, by name (an unknown name is a tailgate bug: config refuses it). */
export function engineOf(name) {
  const e = ENGINES[name];
  if (!e) throw new Error(`no load engine ${JSON.stringify(name)} in engines/index.js`);
  return e;
}

/**
 * The engine a run uses: the flag's, else the bench.yaml's, else auto — k6 where the
 * pinned k6 is installed, Vegeta otherwise. {name, version, why} (why: one line for auto).
 */
export async function chooseEngine(requested = 'auto', { versions = engineVersions } = {}) {
  if (!ENGINE_NAMES.includes(requested))
    throw new InputError(
      `engine: expected one of ${ENGINE_NAMES.join(', ')}, got ${JSON.stringify(String(requested).slice(0, 20))}`,
    );
  const v = await versions();
  if (requested === 'auto') {
    if (v.k6 === PINS.k6) return { name: 'k6', version: v.k6, why: null };
    return {
      name: 'vegeta',
      version: v.vegeta,
      why: `k6 ${PINS.k6} is not installed (its release binary cannot be downloaded here): load runs on Vegeta ${v.vegeta ?? '(not installed)'}`,
    };
  }
  if (!v[requested]) throw new InputError(`engine ${requested}: ${ENGINES[requested].missing}`);
  return { name: requested, version: v[requested], why: null };
}

/**
 * The engine a plan shows for a cell before the run chooses: the cell's (set by the run),
 * else its scenario's; auto resolves when the run starts (k6 where its pinned release is
 * installed, else Vegeta), and the dry run shows the first engine's commands for it.
 */
export function engineShown(cell) {
  const e = cell.engine ?? cell.scenario.engine ?? 'auto';
  return engineOf(e === 'auto' ? Object.keys(ENGINES)[0] : e);
}

let cached;
async function engineVersions() {
  if (!cached) {
    cached = {};
    for (const e of Object.values(ENGINES)) cached[e.name] = await e.version();
  }
  return cached;
}

/**
 * Puts a cell's load on url (and a duet's urlB) with the engine the run chose for it
 * (cell.engine, set by run/runner.js; auto's where a caller set none), as its runner resolves.
 */
export async function runLoad(cell, opts) {
  const name = cell.engine ?? (await chooseEngine('auto')).name;
  return engineOf(name).run(cellLoad(cell), opts);
}

/**
 * Where an engine's outcome left its output and how to read it: ingest's arguments. An
 * outcome that names neither is k6's, as every outcome was before there were two engines
 * (its output: k6.json.gz in the cell folder).
 */
export function loadOutput(outcome, dir) {
  return {
    output: outcome?.output ?? join(dir, 'k6.json.gz'),
    format: outcome?.format ?? 'k6',
    ...(outcome?.sides ? { sides: outcome.sides } : {}),
  };
}
