// The baselines make bench compares against on a 2-core Debian 12 machine
// (baselines/local-2cpu-debian12/): one per cell of bench.yaml's local matrix, each a
// valid baseline document, each measured on the workload the matrix runs today — a
// change to a local scenario, or to the pinned version of the engine this class runs,
// that would leave them stale fails here, and they are recorded again (docs/baselines.md).
// This class runs Vegeta: k6's release cannot be downloaded on these machines and k6 is
// never built from its module (docs/engines.md).
import assert from 'node:assert/strict';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadBench, parseBench } from '../../src/config/load.js';
import { machineClass } from '../../src/result/machine.js';
import { baselinePath } from '../../src/compare/baselines.js';
import { readJsonFile, toReps } from '../../src/result/load.js';
import { workloadDiff, workloadOf, workloadRecord } from '../../src/result/workload.js';
import { schemaProblems } from '../../src/schema.js';
import { scratchDir } from '../helpers/scratch.js';

const ROOT = new URL('../../../', import.meta.url).pathname;
const PROFILE = 'local-2cpu-debian12';
const DIR = join(ROOT, 'baselines');
const versions = readJsonFile(join(ROOT, 'tools', 'versions.json'));

test(`committed baselines: one per cell of the local matrix for ${PROFILE}, valid, on today's workload`, () => {
  const cfg = loadBench(join(ROOT, 'bench.yaml'));
  assert.deepEqual(cfg.profiles[PROFILE].machine, { cpus: 2, os: 'debian-12' });
  const m = cfg.matrices.local;
  const cells = m.controllers.flatMap((c) => m.tunings.flatMap((t) => m.scenarios.map((s) => `${c}/${t}/${s}`)));
  const files = [];
  for (const key of cells) {
    const file = baselinePath(DIR, PROFILE, key);
    assert.ok(
      existsSync(file),
      `${key}: no committed baseline (${file}); record it: make bench, then tailgate baseline update`,
    );
    const doc = readJsonFile(file);
    assert.deepEqual(schemaProblems('baseline', doc), [], `${file}: schema`);
    const { reps } = toReps(doc, file);
    assert.ok(reps.length >= 1, `${file}: repetitions`);
    const scenario = cfg.scenarios[key.split('/')[2]];
    const today = workloadRecord(scenario, { name: 'vegeta', version: versions.vegeta });
    for (const r of reps)
      assert.deepEqual(
        workloadDiff(workloadOf(r), today),
        [],
        `${file}: measured another workload than the matrix runs`,
      );
    assert.equal(doc.profile, PROFILE);
    files.push(file);
  }
  // Nothing else under the profile: a baseline for a cell the matrix dropped is stale.
  const all = readdirSync(join(DIR, PROFILE), { recursive: true }).filter((f) => f.endsWith('.json'));
  assert.equal(
    all.length,
    files.length,
    `baselines/${PROFILE}: ${all.length} files, the matrix has ${files.length} cells`,
  );
});

test('a local matrix without a profile takes the local profile of this machine class, else "local"', () => {
  const here = machineClass();
  const bench = (machine) =>
    parseBench(`apiVersion: tailgate/v1
kind: Bench
profiles:
  other: { runner: local, machine: { cpus: 4096, os: ${here.os === 'plan9-4' ? 'plan9-5' : 'plan9-4'} } }
  mine: { runner: local, machine: ${JSON.stringify(machine)} }
controllers: { a: { type: local, variant: nginx-reload } }
scenarios: { s: { script: steady, rate: 100, duration: 20s } }
matrices: { m: { target: local, controllers: [a], scenarios: [s] } }
`);
  assert.equal(bench(here).matrices.m.profile, 'mine');
  assert.equal(bench({ ...here, cpus: here.cpus + 1 }).matrices.m.profile, 'local');
  const dir = scratchDir('tg-osrel-');
  writeFileSync(join(dir, 'os-release'), 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\nVERSION_ID="12"\n');
  assert.equal(machineClass({ osRelease: join(dir, 'os-release') }).os, 'debian-12');
  assert.equal(machineClass({ osRelease: join(dir, 'missing') }).os, 'unknown');
});
