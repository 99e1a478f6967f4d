// make test-workflows: the adopter's tailgate-comment.yml (workflow_run) → tailgate's
// reusable comment.yml, executed by act on real event payloads against the REST stand-in:
// the sticky comment and the check run are created, then updated (never duplicated),
// the check run annotated only on files of its PR; a fork PR is found by
// owner:branch; a head SHA that no open PR has posts nothing; a cancelled run posts
// nothing.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ROOT, actMissing, gitRepo, runAct } from './act.js';
import { startRestStandin } from './rest-standin.js';
import { scratchDir } from '../helpers/scratch.js';
import { workflowFiles } from '../../src/cli/init-workflows.js';

const skip = actMissing() || false;
const HEAD = 'a'.repeat(40);
const FORK_HEAD = 'b'.repeat(40);
let api;
let repo;

// The gate's annotations (report/annotations.js): one on a file PR 7 changed, one on a
// file it did not (a forged artifact's aim at another PR's file: dropped).
const ANNOTATIONS = [
  { path: 'traefik-values.yaml', line: 4, message: 'tailgate: regression — the head runs maxIdleConnsPerHost 200 → 4' },
  { path: 'charts/elsewhere.yaml', line: 1, message: 'tailgate: regression — not a file of this PR' },
];

function artifactZip(overall, exitCode) {
  const dir = scratchDir('tg-wf-art-');
  // The gate job's real comment (golden), its links on this repository's runs.
  const body = readFileSync(join(ROOT, 'tools/test/fixtures/golden/gate-comment.md'), 'utf8');
  writeFileSync(
    join(dir, 'comment.md'),
    body.replaceAll('https://github.com/o/r/', 'https://github.com/acme/ingress/'),
  );
  writeFileSync(
    join(dir, 'meta.json'),
    JSON.stringify({ kind: 'tailgate.comment', schemaVersion: 1, overall, exitCode, annotations: ANNOTATIONS }),
  );
  const zip = join(dir, 'a.zip');
  spawnSync('zip', ['-j', '-q', zip, join(dir, 'comment.md'), join(dir, 'meta.json')]);
  return readFileSync(zip);
}

const pr = (number, sha, { fork = false } = {}) => ({
  number,
  state: 'open',
  fork,
  head: { sha, ref: fork ? 'feature' : `pr-${number}`, repo: { owner: { login: fork ? 'contrib' : 'acme' } } },
  base: { repo: { full_name: 'acme/ingress' } },
});

function payload(runId, { sha = HEAD, conclusion = 'failure', owner = 'acme', branch = 'pr-7' } = {}) {
  return {
    action: 'completed',
    workflow_run: {
      id: runId,
      name: 'tailgate',
      event: 'pull_request',
      conclusion,
      head_sha: sha,
      head_branch: branch,
      head_repository: { owner: { login: owner }, full_name: `${owner}/ingress` },
    },
    repository: { full_name: 'acme/ingress', name: 'ingress', owner: { login: 'acme' } },
  };
}

before(async () => {
  if (skip) return;
  api = await startRestStandin({
    pulls: [pr(7, HEAD), pr(9, FORK_HEAD, { fork: true })],
    files: {
      7: [
        { filename: 'traefik-values.yaml', status: 'modified' },
        { filename: 'bench.yaml', status: 'modified' },
      ],
    },
    artifacts: Object.fromEntries(
      [101, 102, 103, 104, 105].map((run) => [
        run,
        [{ id: run * 10, name: 'tailgate-comment-pr', zip: artifactZip('regression', 1) }],
      ]),
    ),
  });
  repo = scratchDir('tg-wf-adopter-');
  cpSync(join(ROOT, 'examples', 'adopter'), repo, { recursive: true });
  // One gate here (pr): examples/adopter's second (pr-routes) would post a failed check
  // of its own for these runs, which carry pr's comment only.
  writeFileSync(
    join(repo, '.github', 'workflows', 'tailgate-comment.yml'),
    workflowFiles(['pr'])['tailgate-comment.yml'],
  );
  gitRepo(repo);
});
after(() => api?.close());

const comment = async (run, extra) =>
  await runAct({
    repo,
    workflow: '.github/workflows/tailgate-comment.yml',
    event: 'workflow_run',
    payload: payload(run, extra),
    apiUrl: api.url,
  });
const posts = () => api.state.calls.filter((c) => c.method !== 'GET');

test(
  'workflows: tailgate-comment.yml creates the sticky comment on the PR whose head the run had, then updates it',
  { skip, timeout: 15 * 60_000 },
  async () => {
    const first = await comment(101);
    assert.equal(first.code, 0, first.log.slice(-3000));
    assert.deepEqual(
      posts().map((c) => [c.method, c.path]),
      [
        ['POST', '/repos/acme/ingress/issues/7/comments'],
        ['POST', '/repos/acme/ingress/check-runs'],
      ],
    );
    assert.match(api.state.comments[0].body, /^<!-- tailgate:sticky-comment -->/);
    // The check run: on the run's head commit, failed (a regression), the comment as its
    // summary, annotated only on the line of a file this PR changed.
    const [check] = api.state.checkRuns;
    assert.equal(check.head_sha, HEAD);
    assert.equal(check.name, 'tailgate');
    assert.equal(check.conclusion, 'failure');
    assert.match(check.output.summary, /^<!-- tailgate:sticky-comment -->/);
    assert.deepEqual(check.output.annotations, [
      {
        path: 'traefik-values.yaml',
        start_line: 4,
        end_line: 4,
        annotation_level: 'failure',
        title: 'tailgate',
        message: ANNOTATIONS[0].message,
      },
    ]);
    const second = await comment(102);
    assert.equal(second.code, 0, second.log.slice(-3000));
    assert.deepEqual(
      posts().map((c) => c.method),
      ['POST', 'POST', 'PATCH', 'PATCH'],
      'the second run updates its comment and its check run, never a second one',
    );
    assert.equal(api.state.comments.length, 1);
    assert.equal(api.state.checkRuns.length, 1);
  },
);

test(
  'workflows: a fork PR is found by owner:branch; a head no open PR has posts nothing; a cancelled run posts nothing',
  { skip, timeout: 15 * 60_000 },
  async () => {
    const before = posts().length;
    const fork = await comment(103, { sha: FORK_HEAD, owner: 'contrib', branch: 'feature' });
    assert.equal(fork.code, 0, fork.log.slice(-3000));
    assert.ok(
      api.state.calls.some((c) => c.path === '/repos/acme/ingress/pulls' && c.query.head === 'contrib:feature'),
    );
    assert.deepEqual(
      posts()
        .slice(before)
        .map((c) => c.path),
      ['/repos/acme/ingress/issues/9/comments', '/repos/acme/ingress/check-runs'],
    );
    const forkCheck = api.state.checkRuns.find((c) => c.head_sha === FORK_HEAD);
    assert.deepEqual(forkCheck.output.annotations, [], 'PR 9 changed none of the files the artifact names');
    const spoofed = await comment(104, { sha: 'c'.repeat(40), owner: 'contrib', branch: 'feature' });
    assert.equal(spoofed.code, 0, spoofed.log.slice(-3000));
    assert.match(spoofed.log, /no open pull request has head c{40}/);
    assert.equal(posts().length, before + 2, 'a spoofed head posts nothing');
    const calls = api.state.calls.length;
    const cancelled = await comment(105, { conclusion: 'cancelled' });
    assert.equal(cancelled.code, 0, cancelled.log.slice(-3000));
    assert.equal(api.state.calls.length, calls, 'a cancelled run makes no call at all (the job is skipped)');
  },
);
