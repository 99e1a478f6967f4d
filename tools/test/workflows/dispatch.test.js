// make test-workflows: bench-dispatch.yml (a thin caller of dispatch.yml) on workflow_dispatch
// payloads, executed by act in a copy of this repository: out-of-range inputs are refused by the dispatch check
// before anything runs, with the CLI's own message; a small valid dispatch runs the local
// target and uploads its results.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { actMissing, gitRepo, preparedTree, runAct } from './act.js';
import { startRestStandin } from './rest-standin.js';

const skip = actMissing() || false;
let api;
let repo;

before(async () => {
  if (skip) return;
  api = await startRestStandin();
  // tailgate's own repository: the workflow's checkout is this tree.
  repo = preparedTree('tg-wf-self-');
  gitRepo(repo, { owner: 'tailgate-dev', name: 'tailgate' });
});
after(() => api?.close());

const inputs = (over) => ({
  controllers: 'nginx-reload',
  tunings: 'default',
  scenarios: 'steady',
  // 1000 samples: what the local matrix's blocking p99 needs (validate refuses fewer).
  rate: '500',
  duration: '2s',
  repetitions: '1',
  matrix: 'local',
  compare: 'none',
  'update-baselines': 'false',
  ...over,
});

const dispatch = (over, artifacts = mkdtempSync(join(tmpdir(), 'tg-wf-arts-'))) =>
  runAct({
    repo,
    workflow: '.github/workflows/bench-dispatch.yml',
    event: 'workflow_dispatch',
    payload: {
      inputs: inputs(over),
      ref: 'refs/heads/main',
      repository: { full_name: 'tailgate-dev/tailgate', default_branch: 'main' },
    },
    apiUrl: api.url,
    artifacts,
  });

for (const [field, value, why] of [
  ['rate', '2000000', /--rate/],
  ['repetitions', '51', /--repetitions/],
  ['controllers', 'nginx-reload;rm -rf /', /controllers must be comma-separated names from bench\.yaml/],
  ['duration', '1y', /--duration/],
])
  test(
    `workflows: bench-dispatch refuses ${field}=${JSON.stringify(value)} in its check step, before any load`,
    { skip, timeout: 10 * 60_000 },
    async () => {
      const r = await dispatch({ [field]: value });
      assert.notEqual(r.code, 0, r.log.slice(-2000));
      assert.match(r.log, /Failure - Main check inputs/);
      assert.match(r.log, why);
      assert.doesNotMatch(r.log, /Main run\b.*\n.*Success/, 'the run step never ran');
    },
  );

test(
  'workflows: a small valid dispatch runs the local target and uploads its results',
  { skip, timeout: 15 * 60_000 },
  async () => {
    const artifacts = mkdtempSync(join(tmpdir(), 'tg-wf-arts-'));
    const r = await dispatch({}, artifacts);
    assert.equal(r.code, 0, r.log.slice(-3000));
    const [run] = readdirSync(artifacts);
    const uploaded = join(artifacts, run, 'results-dispatch');
    assert.ok(existsSync(uploaded), r.log.slice(-2000));
    const results = readdirSync(uploaded, { recursive: true }).filter((f) => String(f).endsWith('result.json'));
    assert.equal(results.length, 1, 'one cell, one repetition');
  },
);
