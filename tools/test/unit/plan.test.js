import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadBench } from '../../src/config/load.js';
import { planMatrix } from '../../src/plan/plan.js';
import { runCli } from '../helpers/cli.js';

const ROOT = new URL('../../../', import.meta.url).pathname;
const cfg = loadBench(join(ROOT, 'bench.yaml'));

test('plan: the local matrix interleaves repetitions across every cell', () => {
  const ids = planMatrix(cfg, 'local', { repetitions: 2 }).cells.map((c) => c.id);
  assert.equal(ids.length, 24);
  assert.ok(ids.indexOf('haproxy-runtime/tuned/churn/rep-1') < ids.indexOf('nginx-reload/default/steady/rep-2'));
});

test('plan: overrides are checked against bench.yaml, rate and duration applied', () => {
  const p = planMatrix(cfg, 'local', {
    controllers: ['nginx-dynamic'],
    scenarios: ['churn'],
    tunings: ['default'],
    rate: 123,
    duration: '9s',
  });
  assert.deepEqual(
    p.cells.map((c) => [c.id, c.scenario.rate, c.scenario.duration]),
    [['nginx-dynamic/default/churn/rep-1', 123, '9s']],
  );
  assert.throws(
    () => planMatrix(cfg, 'local', { scenarios: ['nope'] }),
    /--scenarios: "nope" not allowed; choose from/,
  );
  assert.throws(() => planMatrix(cfg, 'local', { controllers: ['traefik'] }), /--controllers: "traefik" not allowed/);
  assert.throws(() => planMatrix(cfg, 'missing'), /no matrix "missing"/);
});

test('cli run: bad flags are exit 2 before anything starts', async () => {
  const code = async (argv) => (await runCli(argv)).code;
  assert.equal(await code(['run', '--config', join(ROOT, 'bench.yaml'), '--scenarios', 'nope']), 2);
  assert.equal(await code(['run', '--config', join(ROOT, 'bench.yaml'), '--rate', '-5']), 2);
  assert.equal(await code(['run', '--config', join(ROOT, 'bench.yaml'), '--duration', 'soon']), 2);
  assert.equal(await code(['run', '--bogus-flag']), 2);
  assert.equal(await code(['frobnicate']), 2);
});

test('pins: one place (tools/versions.json); clusters/images.yaml names the same kind release', async () => {
  const { readFileSync } = await import('node:fs');
  const { PINS } = await import('../../src/version.js');
  const images = readFileSync(new URL('../../../clusters/images.yaml', import.meta.url), 'utf8');
  assert.match(images, new RegExp(`^kind: ${PINS.kind.replace(/\./g, '\\.')}$`, 'm'));
  for (const f of [
    'tools/scripts/setup.sh',
    'tools/ci/install-kube-tools.sh',
    'tools/scripts/build-engine-image.sh',
    'tools/scripts/test-kind.sh',
    'tools/src/exec/deps.js',
    'tools/src/targets/kube/load-job.js',
    'tools/src/engines/k6/job.js',
    'tools/src/engines/vegeta/job.js',
  ]) {
    const text = readFileSync(new URL(`../../../${f}`, import.meta.url), 'utf8');
    for (const [name, v] of Object.entries(PINS))
      if (!name.startsWith('$'))
        assert.ok(
          !text.includes(v.replace(/^v/, '')) || name === 'traefik',
          `${f} writes ${name} ${v} itself: read it from tools/versions.json`,
        );
  }
});

test('plan: a cost estimate per matrix (jobs, longest job, runner-minutes)', async () => {
  const { loadBench } = await import('../../src/config/load.js');
  const { planMatrix } = await import('../../src/plan/plan.js');
  const { estimateCost } = await import('../../src/plan/cost.js');
  const cfg = loadBench(new URL('../../../bench.yaml', import.meta.url).pathname);
  const local = estimateCost(planMatrix(cfg, 'local'));
  assert.equal(local.jobs, 1);
  assert.ok(local.longestJobS > 12 * 22 && local.longestJobS < 12 * 30, `${local.longestJobS}`);
  const pr = estimateCost(planMatrix(cfg, 'pr'));
  assert.equal(pr.jobs, 4, 'one job per cell, repetitions inside it');
  assert.ok(pr.runnerMinutes > pr.longestJobS / 60, 'runner-minutes add up every job');
});

test("plan: a duet matrix is one job per controller (its cluster runs every tuning and scenario), on GitHub's model or this machine's", async () => {
  const { loadBench } = await import('../../src/config/load.js');
  const { planMatrix } = await import('../../src/plan/plan.js');
  const { estimateCost, jobsOf } = await import('../../src/plan/cost.js');
  const { runCli } = await import('../helpers/cli.js');
  const fixture = new URL('../fixtures/kind/bench.yaml', import.meta.url).pathname;
  const cfg = loadBench(fixture);
  const plan = planMatrix(cfg, 'e2e-duet');
  assert.equal(jobsOf(plan).length, 1, 'steady and pod-kill in one job');
  const json = JSON.parse((await runCli(['plan', '--config', fixture, '--matrix', 'e2e-duet', '--json'])).out);
  assert.deepEqual(json.include, [
    { controller: 'traefik-gateway', tuning: 'default', scenario: 'steady,pod-kill,routes' },
  ]);
  // kind-offline is this machine's profile: no hosted set-up, images in place.
  const here = estimateCost(plan, { cfg });
  const hosted = estimateCost(plan);
  assert.ok(here.longestJobS < hosted.longestJobS - 200, `${here.longestJobS} vs ${hosted.longestJobS}`);
});

test('plan: routes carried before each run (routes: N) cost the run their time, not its load share', async () => {
  const { loadBench } = await import('../../src/config/load.js');
  const { planMatrix } = await import('../../src/plan/plan.js');
  const { estimateCost, CARRY } = await import('../../src/plan/cost.js');
  const cfg = loadBench(new URL('../../perf/kind-routes.bench.yaml', import.meta.url).pathname);
  const plan = planMatrix(cfg, 'routes-sweep');
  const withRoutes = estimateCost(plan, { cfg });
  const without = estimateCost(
    { ...plan, cells: plan.cells.map((c) => ({ ...c, scenario: { ...c.scenario, routes: undefined } })) },
    { cfg },
  );
  // Two controllers × (10 + 100 + 1,000) routes, and a fixed part per run.
  const expected = 2 * (3 * CARRY.fixedS + 1110 * CARRY.perRouteS);
  assert.ok(
    Math.abs(withRoutes.runnerMinutes * 60 - without.runnerMinutes * 60 - expected) < 7,
    `${withRoutes.runnerMinutes} vs ${without.runnerMinutes}`,
  );
  assert.ok(withRoutes.loadShare < without.loadShare, 'carrying is not load');
});

test('runners: execution segments cover the scenario exactly once', async () => {
  const { segmentArgs } = await import('../../src/engines/k6/plan.js');
  assert.deepEqual(segmentArgs(null), []);
  assert.deepEqual(segmentArgs({ index: 0, count: 1 }), []);
  assert.deepEqual(segmentArgs({ index: 0, count: 3 }), [
    '--execution-segment',
    '0:1/3',
    '--execution-segment-sequence',
    '0,1/3,2/3,1',
  ]);
  assert.deepEqual(segmentArgs({ index: 2, count: 3 }), [
    '--execution-segment',
    '2/3:1',
    '--execution-segment-sequence',
    '0,1/3,2/3,1',
  ]);
});
