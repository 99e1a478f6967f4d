// A run's --duration and --rate hold for both sides of a PR's duet: the base's bench.yaml
// is loaded as it runs, so a value only the command line set (the act cases run 15 s
// cells: TAILGATE_DURATION) is no workload change the comment would lead with.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { planOverrides } from '../../src/cli/options.js';
import { loadConfig } from '../../src/cli/config-file.js';
import { planMatrix } from '../../src/plan/plan.js';
import { scratchDir } from '../helpers/scratch.js';

const BENCH = `apiVersion: tailgate/v1
kind: Bench
profiles:
  gha: { description: GitHub-hosted runner, runner: ubuntu-24.04, maxRate: 1000 }
controllers:
  traefik: { type: helm, chart: { repo: https://traefik.github.io/charts, name: traefik, version: 41.3.0 } }
scenarios:
  steady: { script: steady, rate: 200, duration: 45s }
matrices:
  pr: { target: kind, profile: gha, controllers: [traefik], scenarios: [steady], compare: concurrent }
`;

function duetPlan(extra) {
  const dir = scratchDir('tg-duet-overrides-');
  const [base, head] = [join(dir, 'base.yaml'), join(dir, 'head.yaml')];
  writeFileSync(base, BENCH);
  writeFileSync(head, BENCH);
  const opts = { matrix: 'pr', 'duet-base': base, ...extra };
  const overrides = planOverrides(opts);
  return planMatrix(loadConfig(head, { matrix: 'pr', overrides }), 'pr', overrides);
}

test('duet overrides: a --duration and --rate of the run are both sides’, no workload change', () => {
  assert.equal(duetPlan({}).workloadChange, undefined);
  assert.equal(duetPlan({ duration: '15s', rate: '100' }).workloadChange, undefined);
});
