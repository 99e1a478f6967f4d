// Issue 67, item 5 — one gate name per commit: the check run and the sticky comment a
// gate's name selects are shared by every workflow that runs on the PR's commit, not by
// the gate.yml calls of one workflow file. Before, plan looked for another call of the
// same name in the caller's own workflow file only, so two workflow files whose calls
// resolved to one name both passed planning, both commenters published check `tailgate`
// on the head commit, and whichever published last decided it: a red gate showed green.
// Now (1) plan refuses a name that a gate.yml call of any workflow file of the repository
// also has, and (2) the publisher marks each check run with the gate workflow it comes
// from: a check of the same name from another workflow makes every such check a failure,
// in any publishing order (a name set at run time cannot be checked at plan).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { checkGateIdentity } from '../../src/plan/gate-identity.js';
import { markerFor } from '../../src/report/markdown.js';
import { publishFromWorkflowRun } from '../../src/publish/index.js';
import { scratchDir } from '../helpers/scratch.js';

const ROOT = new URL('../../../', import.meta.url).pathname;
const CLI = join(ROOT, 'tools', 'bin', 'tailgate.js');

const call = (job, w) =>
  `  ${job}:\n    uses: tailgate-dev/tailgate/.github/workflows/gate.yml@v0\n    with: ${JSON.stringify(w)}\n`;
const workflow = (name, ...jobs) => `name: ${name}\non: { pull_request: }\njobs:\n${jobs.join('')}`;

// An adopter with two workflow files that gate PRs: tailgate.yml and perf.yml.
function repo(perfJobs) {
  const dir = scratchDir('tg-gate-commit-');
  mkdirSync(join(dir, '.github', 'workflows'), { recursive: true });
  writeFileSync(
    join(dir, '.github', 'workflows', 'tailgate.yml'),
    workflow('tailgate', call('gate', { matrix: 'pr' })),
  );
  writeFileSync(join(dir, '.github', 'workflows', 'perf.yml'), workflow('perf', ...perfJobs));
  writeFileSync(
    join(dir, '.github', 'workflows', 'lint.yml'),
    workflow('lint', '  lint:\n    runs-on: x\n    steps: []\n'),
  );
  return dir;
}

const gateName = (dir, file, ...extra) => {
  const env = { ...process.env };
  delete env.GITHUB_OUTPUT;
  return spawnSync(
    process.execPath,
    [
      CLI,
      'plan',
      '--gate',
      '--matrix',
      'pr',
      '--workflow',
      `acme/app/.github/workflows/${file}@refs/pull/7/merge`,
      ...extra,
    ],
    { cwd: dir, encoding: 'utf8', env },
  );
};

test('gate name per commit: plan refuses a name a gate.yml call of another workflow file has too, from either file (exit 2, naming both)', () => {
  const dir = repo([call('bench', { config: 'bench.yaml' })]);
  for (const file of ['tailgate.yml', 'perf.yml']) {
    const r = gateName(dir, file);
    assert.equal(r.status, 2, `${file}: ${r.stdout}${r.stderr}`);
    assert.doesNotMatch(r.stdout, /^gate=/m, 'no name: nothing of this gate runs or is published');
    assert.match(r.stderr, /two gates would share one name/);
    assert.match(r.stderr, /\.github\/workflows\/perf\.yml job bench/);
    assert.match(r.stderr, /\.github\/workflows\/tailgate\.yml job gate/);
    assert.match(r.stderr, /one check run and one comment per commit/);
  }
  assert.equal(checkGateIdentity({ root: dir, gate: 'pr' }).problems.length, 1);
});

test('gate name per commit: distinct names across workflow files pass; a name input separates two calls of one config', () => {
  const dir = repo([call('bench', { config: 'services/api/bench.yaml' }), call('canary', { name: 'canary' })]);
  const a = gateName(dir, 'tailgate.yml');
  assert.equal(a.status, 0, a.stderr);
  assert.equal(a.stdout, 'gate=pr\n');
  const b = gateName(dir, 'perf.yml', '--config', 'services/api/bench.yaml');
  assert.equal(b.status, 0, b.stderr);
  assert.equal(b.stdout, 'gate=services-api.pr\n');
  const c = gateName(dir, 'perf.yml', '--gate-name', 'canary');
  assert.equal(c.status, 0, c.stderr);
});

// GitHub's check runs as the commenting jobs see them: one list per commit and name,
// created by the github-actions app, each with the external_id it was given.
function github() {
  const runs = [];
  let comments = [];
  const rest = {
    repos: {
      listPullRequestsAssociatedWithCommit: async () => ({ data: [{ number: 7, state: 'open', head: { sha: 'h' } }] }),
    },
    issues: {
      listComments: async () => ({ data: comments }),
      createComment: async (a) => {
        comments = [...comments, { id: comments.length + 1, user: { login: 'github-actions[bot]' }, body: a.body }];
        return { data: { id: comments.length } };
      },
      updateComment: async (a) => {
        comments = comments.map((c) => (c.id === a.comment_id ? { ...c, body: a.body } : c));
        return { data: {} };
      },
    },
    checks: {
      listForRef: async (a) => {
        await new Promise((r) => setImmediate(r));
        const found = runs.filter((c) => c.head_sha === a.ref && c.name === a.check_name);
        return { data: { total_count: found.length, check_runs: found.map((c) => ({ ...c })) } };
      },
      create: async (a) => {
        await new Promise((r) => setImmediate(r));
        const run = { id: runs.length + 1, app: { slug: 'github-actions' }, ...a };
        delete run.owner;
        delete run.repo;
        runs.push(run);
        return { data: { id: run.id } };
      },
      update: async (a) => {
        const run = runs.find((c) => c.id === a.check_run_id);
        for (const [k, v] of Object.entries(a)) if (!['owner', 'repo', 'check_run_id'].includes(k)) run[k] = v;
        return { data: {} };
      },
    },
    pulls: { listFiles: async () => ({ data: [] }), list: async () => ({ data: [] }) },
  };
  return {
    runs,
    comments: () => comments,
    client: { rest, paginate: async (fn, args) => (await fn(args)).data },
  };
}

// The comment artifact a gate of workflow `path` left: a regression or a pass.
function artifact(verdict) {
  const dir = scratchDir('tg-gate-commit-art-');
  const [overall, exitCode, head] =
    verdict === 'regression' ? ['regression', 1, '❌ regression'] : ['pass', 0, '✅ no regression'];
  writeFileSync(join(dir, 'comment.md'), `${markerFor('pr')}\n### tailgate ${head}\n`);
  writeFileSync(
    join(dir, 'meta.json'),
    JSON.stringify({ kind: 'tailgate.comment', schemaVersion: 1, overall, exitCode }),
  );
  return dir;
}

const publish = (gh, path, verdict) =>
  publishFromWorkflowRun({
    github: gh.client,
    context: {
      repo: { owner: 'o', repo: 'r' },
      payload: { workflow_run: { path, name: path.replace(/^.*\//, ''), head_sha: 'h', event: 'pull_request' } },
    },
    core: { info() {}, notice() {}, warning() {} },
    env: { ARTIFACT_DIR: artifact(verdict), HEAD_SHA: 'h', GATE: 'pr', GITHUB_SERVER_URL: 'https://github.com' },
  });

// What the PR shows: the newest check run of the name (GitHub shows and requires that one).
const shown = (gh) => gh.runs.filter((c) => c.name === 'tailgate').at(-1);

test('gate name per commit: two workflows publishing one gate — in either order, and at once, the shared check is a failure naming both', async () => {
  const A = '.github/workflows/tailgate.yml';
  const B = '.github/workflows/perf.yml';
  const orders = {
    'red then green': async (gh) => {
      await publish(gh, A, 'regression');
      await publish(gh, B, 'pass');
    },
    'green then red': async (gh) => {
      await publish(gh, B, 'pass');
      await publish(gh, A, 'regression');
    },
    'at once': async (gh) => {
      await Promise.all([publish(gh, A, 'regression'), publish(gh, B, 'pass')]);
    },
  };
  for (const [order, run] of Object.entries(orders)) {
    const gh = github();
    await run(gh);
    assert.ok(gh.runs.length >= 1, order);
    for (const c of gh.runs) assert.equal(c.conclusion, 'failure', `${order}: check ${c.id} (${c.external_id})`);
    assert.equal(shown(gh).conclusion, 'failure', order);
    assert.match(shown(gh).output.summary, /tailgate\.yml/, order);
    assert.match(shown(gh).output.summary, /perf\.yml/, order);
    assert.match(gh.comments()[0].body, /published by more than one workflow/, `${order}: the comment says so too`);
  }
});

test('gate name per commit: one workflow publishing again (a re-run) updates its own check, no collision; a check from before the mark is adopted', async () => {
  const A = '.github/workflows/tailgate.yml';
  const gh = github();
  await publish(gh, A, 'regression');
  await publish(gh, A, 'pass');
  assert.equal(gh.runs.length, 1);
  assert.equal(gh.runs[0].conclusion, 'success');
  const legacy = github();
  legacy.runs.push({ id: 1, app: { slug: 'github-actions' }, name: 'tailgate', head_sha: 'h', conclusion: 'failure' });
  await publish(legacy, A, 'pass');
  assert.equal(legacy.runs.length, 1);
  assert.equal(legacy.runs[0].conclusion, 'success');
  assert.equal(legacy.runs[0].external_id, A);
});
