// --rate and --duration are the file's values as the run has them (config/overrides.js):
// laid over the matrix before the defaults and the checks, so what derives from them —
// maxVus, the profile's k6 budget, a duet's doubled rate, the tail-sample checks — sees
// the value that runs, and the file's refusals apply to them alike. Before, plan laid them
// over each cell after all of that: k6 ran 5000/s with VUs sized for 500, on a runner
// whose profile carries 1000.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { LIMITS } from '../../src/cli/options.js';
import { loadBench, parseBench } from '../../src/config/load.js';
import { planMatrix } from '../../src/plan/plan.js';
import { runCli } from '../helpers/cli.js';
import { scratchDir } from '../helpers/scratch.js';

// Two matrices share "steady": `small` on a profile that carries 1000/s, `many` with
// enough repetitions for its blocking p99.9 at the written rate (500/s × 20 s × 2 = 20k).
const bench = ({ rate = 500, duration = '20s' } = {}) => `apiVersion: tailgate/v1
kind: Bench
profiles:
  small: { runner: ubuntu-24.04, maxRate: 1000 }
controllers:
  nginx-reload: { type: local, variant: nginx-reload }
  nginx-dynamic: { type: local, variant: nginx-dynamic }
scenarios:
  steady: { script: steady, rate: ${rate}, duration: ${duration}, timeout: 2s }
  seq: { script: sequential, duration: 10s }
matrices:
  small: { target: local, profile: small, controllers: [nginx-reload], scenarios: [steady, seq] }
  many:
    target: local
    controllers: [nginx-reload]
    scenarios: [steady]
    repetitions: 2
    gate: { latency: { p99.9: { blocking: true } } }
`;

function file(text) {
  const f = join(scratchDir('tg-overrides-'), 'bench.yaml');
  writeFileSync(f, text);
  return f;
}

/** The problem lines of a refused load, without where each is (file:line:col, or the flag). */
function refusal(load) {
  try {
    load();
  } catch (err) {
    assert.equal(err.exitCode, 2, String(err));
    return err.details.map((d) => d.replace(/^.*?: (?=(scenarios|matrices)\.)/, ''));
  }
  assert.fail('loaded without a refusal');
}

test("overrides: --rate above the profile's maxRate is refused as the same rate written in the file is", async () => {
  const written = refusal(() => parseBench(bench({ rate: 5000 }), 'bench.yaml'));
  const flag = refusal(() => loadBench(file(bench()), { matrix: 'small', overrides: { rate: 5000 } }));
  assert.deepEqual(
    flag,
    written.filter((p) => p.includes('maxRate')),
  );
  assert.match(flag[0], /^scenarios\.steady\.rate: 5000\/s, over profile "small"'s maxRate 1000/);
  // Where it came from: the flag, not the line of the rate the file writes.
  const r = await runCli(['plan', '--config', file(bench()), '--matrix', 'small', '--rate', '5000']);
  assert.equal(r.code, 2, r.out);
  assert.match(r.out, /bench\.yaml with --rate 5000: scenarios\.steady\.rate: 5000\/s, over profile "small"'s maxRate/);
});

test("overrides: a duet's one k6 runs both sides at --rate: --ab-head doubles what the profile must carry", async () => {
  const f = file(bench());
  assert.doesNotThrow(() => loadBench(f, { matrix: 'small', overrides: { rate: 600 } }));
  const [p] = refusal(() => loadBench(f, { matrix: 'small', overrides: { rate: 600, abHead: 'nginx-dynamic' } }));
  assert.match(p, /600\/s per side is 1200\/s for the one k6 of a duet, over profile "small"'s maxRate 1000/);
  const r = await runCli(['run', '--config', f, '--matrix', 'small', '--ab-head', 'nginx-dynamic', '--rate', '600']);
  assert.equal(r.code, 2, r.out);
  assert.match(r.out, /with --rate 600 --ab-head nginx-dynamic: scenarios\.steady\.rate/);
});

test('overrides: maxVus is derived from the rate that runs (rate × timeout), a written one kept', () => {
  const f = file(bench());
  const vus = (cfg, overrides) =>
    Object.fromEntries(planMatrix(cfg, 'small', overrides).cells.map((c) => [c.scenarioName, c.scenario.maxVus]));
  assert.deepEqual(vus(loadBench(f), {}), { steady: 1000, seq: 200 });
  const cfg = loadBench(f, { matrix: 'small', overrides: { rate: 900 } });
  assert.deepEqual(vus(cfg, { rate: 900 }), { steady: 1800, seq: 200 });
  // A scenario without a rate of its own (sequential) gets none from --rate.
  assert.equal(planMatrix(cfg, 'small', { rate: 900 }).cells[1].scenario.rate, undefined);
  // Loaded without the overrides first (tailgate migrate): planMatrix loads it with them.
  assert.deepEqual(vus(loadBench(f), { rate: 900 }), { steady: 1800, seq: 200 });
  const written = loadBench(file(bench().replace('timeout: 2s', 'timeout: 2s, maxVus: 300')));
  assert.deepEqual(vus(written, { rate: 900 }), { steady: 300, seq: 200 });
});

test("overrides: --duration too short for a blocking quantile's samples is refused as the same duration written", async () => {
  const written = refusal(() => parseBench(bench({ duration: '8s' }), 'bench.yaml'));
  const f = file(bench());
  const flag = refusal(() => loadBench(f, { matrix: 'many', overrides: { duration: '8s' } }));
  assert.deepEqual(flag, written);
  assert.match(flag[0], /p99\.9 is blocking but scenario "steady" gives 500\/s × 8s × 2 repetitions = 8000 samples/);
  // --rate counts alike; both named.
  const r = await runCli(['plan', '--config', f, '--matrix', 'many', '--rate', '200', '--duration', '20s']);
  assert.equal(r.code, 2, r.out);
  assert.match(
    r.out,
    /with --rate 200 --duration 20s: matrices\.many\.gate\.latency\.p99\.9\.blocking: .* 8000 samples/,
  );
  // A selection is not a value: a job running one of the matrix's repetitions is gated on all.
  assert.equal((await runCli(['plan', '--config', f, '--matrix', 'many', '--repetitions', '1'])).code, 0);
});

test('overrides: they land on the matrix the run names, not on the scenario other matrices share', () => {
  const f = file(bench());
  // 100/s would leave `many` 4000 samples for its p99.9; `small` gates p99 only.
  const cfg = loadBench(f, { matrix: 'small', overrides: { rate: 100, duration: '10s' } });
  assert.equal(cfg.scenarios.steady.rate, 500);
  assert.deepEqual(
    planMatrix(cfg, 'small', { rate: 100, duration: '10s' }).cells.map((c) => [c.scenario.rate, c.scenario.duration]),
    [
      [100, '10s'],
      [undefined, '10s'],
    ],
  );
  assert.deepEqual(
    planMatrix(cfg, 'many').cells.map((c) => [c.scenario.rate, c.scenario.duration]),
    [
      [500, '20s'],
      [500, '20s'],
    ],
  );
});

test('overrides: tailgate migrate checks --duration as the file would, before anything runs', async () => {
  const f = file(bench());
  const r = await runCli([
    'migrate',
    '--config',
    f,
    '--matrix',
    'many',
    '--from',
    'nginx-reload',
    '--to',
    'nginx-dynamic',
    '--duration',
    '8s',
  ]);
  assert.equal(r.code, 2, r.out);
  assert.match(r.out, /with --duration 8s.*: matrices\.many\.gate\.latency\.p99\.9\.blocking: .* 8000 samples/);
});

test("overrides: --rate and --repetitions accept the file's bounds, read from the schema (one coding)", () => {
  const schema = JSON.parse(readFileSync(new URL('../../../schemas/bench.schema.json', import.meta.url), 'utf8'));
  const { rate } = schema.definitions.scenario.properties;
  assert.deepEqual(LIMITS.rate, { min: rate.minimum, max: rate.maximum });
  const { repetitions } = schema.definitions.matrix.properties;
  assert.deepEqual(LIMITS.repetitions, { min: repetitions.minimum, max: repetitions.maximum });
});
