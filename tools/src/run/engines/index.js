// The load engines, and which one a run uses. k6 is what GitHub's runners download (its
// release binary, checksum verified); Vegeta (MIT) runs wherever that release cannot be
// had — k6 is never built from its Go module, which is under the AGPL (docs/engines.md).
// An engine is its runner and the reader its output is ingested with; results name the
// engine and its version, so one engine's result never compares with the other's.
import { join } from 'node:path';
import { probe, DEPENDENCIES } from '../../exec/deps.js';
import { PINS } from '../../version.js';
import { InputError } from '../../errors.js';
import { cellLoad, runK6Segments } from '../k6.js';
import { runVegetaSegments } from './vegeta.js';

export const ENGINE_NAMES = Object.freeze(['auto', 'k6', 'vegeta']);

// An engine's version is its tools entry's (exec/deps.js: for a Vegeta built with `go
// install`, read from the build information in the binary), written as the pins are.
async function versionOf(name) {
  const v = (await probe(DEPENDENCIES.find((d) => d.name === name))).version;
  return v && !v.startsWith('v') ? `v${v}` : v;
}

export const ENGINES = Object.freeze({
  k6: {
    format: 'k6',
    run: runK6Segments,
    version: () => versionOf('k6'),
  },
  vegeta: {
    format: 'vegeta',
    run: runVegetaSegments,
    version: () => versionOf('vegeta'),
  },
});

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
  if (!v[requested])
    throw new InputError(
      requested === 'k6'
        ? `engine k6: k6 ${PINS.k6} is not installed (make setup downloads its release binary where GitHub is reachable); engine: auto or vegeta runs Vegeta`
        : `engine vegeta: vegeta is not installed (make setup builds the pinned Vegeta)`,
    );
  return { name: requested, version: v[requested], why: null };
}

let cached;
async function engineVersions() {
  cached ??= { k6: await ENGINES.k6.version(), vegeta: await ENGINES.vegeta.version() };
  return cached;
}

/**
 * Puts a cell's load on url (and a duet's urlB) with the engine the run chose for it
 * (cell.engine, set by run/runner.js; auto's where a caller set none), as its runner resolves.
 */
export async function runLoad(cell, opts) {
  const name = cell.engine ?? (await chooseEngine('auto')).name;
  return ENGINES[name].run(cellLoad(cell), opts);
}

/** Where an engine's outcome left its output and how to read it (k6's: k6.json.gz): ingest's arguments. */
export function loadOutput(outcome, dir) {
  return {
    k6Output: outcome?.output ?? join(dir, 'k6.json.gz'),
    format: outcome?.format ?? 'k6',
    ...(outcome?.sides ? { sides: outcome.sides } : {}),
  };
}
