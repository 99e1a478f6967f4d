// bench.yaml's durations and percentages become numbers in config/normalise.js only: a
// stage that acts on one reads that module's numbers, with the defaults there.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { loadBench } from '../../src/config/load.js';
import {
  controllerMs,
  nodeLatencyMs,
  ruleNumbers,
  scenarioMs,
  scenarioShares,
  tuningMs,
} from '../../src/config/normalise.js';
import { floorMs } from '../../src/compare/latency.js';
import { SRC, modules } from '../helpers/stages.js';

const ROOT = new URL('../../../', import.meta.url).pathname;

test('normalise: the repository bench.yaml gives every section its numbers, written values kept', () => {
  const cfg = loadBench(join(ROOT, 'bench.yaml'));
  for (const s of Object.values(cfg.scenarios)) {
    assert.equal(typeof s.duration, 'string', 'the written form stays');
    const t = scenarioMs(s);
    assert.ok(t.duration >= 1000 && Number.isFinite(t.warmup) && Number.isFinite(t.timeout));
    assert.ok(Object.isFrozen(t));
    assert.equal(scenarioMs(s), t, 'made once per object');
  }
  for (const t of Object.values(cfg.tunings)) assert.ok(tuningMs(t).readTimeout > 0);
  for (const m of Object.values(cfg.matrices)) assert.ok(nodeLatencyMs(m) >= 0);
});

test('normalise: defaults live in one place', () => {
  assert.deepEqual(
    { ...scenarioMs({ duration: '1m30s' }) },
    {
      warmup: 0,
      duration: 90_000,
      timeout: 10_000,
      pause: null,
      headDelay: 0,
      sloP99: 50,
    },
  );
  assert.deepEqual(
    { ...scenarioShares({ headErrors: '2%' }) },
    {
      headDelayShare: 0,
      headErrors: 0.02,
      headAltErrors: 0,
      backendErrors: 0,
    },
  );
  assert.deepEqual({ ...controllerMs({ updateLag: '250ms' }) }, { updateLag: 250, backendDelay: 0, proxyDelay: 0 });
  assert.deepEqual({ ...tuningMs({}) }, { connectTimeout: 5000, readTimeout: 60_000 });
  assert.equal(nodeLatencyMs({ nodeLatency: '2ms' }), 2);
  assert.deepEqual({ ...ruleNumbers({ threshold: '25%', floor: '100ms' }) }, { threshold: 0.25, floorMs: 100 });
  assert.equal(ruleNumbers({ threshold: '10%', floor: 'auto' }).floorMs, null);
  assert.equal(floorMs({ threshold: '10%', floor: 'auto' }, 50), 0.1, 'auto: twice the resolution of 0.1%');
});

// Where a written duration or percentage may still be read: config/ (validation sees what
// the user wrote; normalise.js makes the numbers), the units themselves, a command-line
// flag, a target's validation rules (the registry) and a migration margin given as a flag.
const ALLOWED = ['config/', 'units.js', 'cli/options.js', 'registry/target-rules.js', 'compare/noninferiority.js'];

test('normalise: no other module parses a bench.yaml duration or percentage', () => {
  const offenders = modules()
    .filter((p) => !ALLOWED.some((a) => relative(SRC, p).startsWith(a)))
    .filter((p) => /\bparse(Duration|Percent)\(/.test(readFileSync(p, 'utf8')))
    .map((p) => relative(SRC, p));
  assert.deepEqual(offenders, [], 'read the numbers from config/normalise.js instead');
});
