// make test-workflows: the adopter's tailgate-comment.yml (workflow_run) → tailgate's
// reusable comment.yml, executed by act on real event payloads against the REST stand-in:
// the sticky comment is created, then updated (never duplicated); a fork PR is found by
// owner:branch; a head SHA that no open PR has posts nothing; a cancelled run posts
// nothing.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ROOT, actMissing, gitRepo, runAct } from './act.js';
import { startRestStandin } from './rest-standin.js';

const skip = actMissing() || false;
const HEAD = 'a'.repeat(40);
const FORK_HEAD = 'b'.repeat(40);
let api;
let repo;

function artifactZip(overall, exitCode) {
  const dir = mkdtempSync(join(tmpdir(), 'tg-wf-art-'));
  // The gate job's real comment (golden), its links on this repository's runs.
  const body = readFileSync(join(ROOT, 'tools/test/fixtures/golden/gate-comment.md'), 'utf8');
  writeFileSync(
    join(dir, 'comment.md'),
    body.replaceAll('https://github.com/o/r/', 'https://github.com/acme/ingress/'),
  );
  writeFileSync(
    join(dir, 'meta.json'),
    JSON.stringify({ kind: 'tailgate.comment', schemaVersion: 1, overall, exitCode }),
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
    artifacts: Object.fromEntries(
      [101, 102, 103, 104, 105].map((run) => [
        run,
        [{ id: run * 10, name: 'tailgate-comment', zip: artifactZip('regression', 1) }],
      ]),
    ),
  });
  repo = mkdtempSync(join(tmpdir(), 'tg-wf-adopter-'));
  cpSync(join(ROOT, 'examples', 'adopter'), repo, { recursive: true });
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
      [['POST', '/repos/acme/ingress/issues/7/comments']],
    );
    assert.match(api.state.comments[0].body, /^<!-- tailgate:sticky-comment -->/);
    const second = await comment(102);
    assert.equal(second.code, 0, second.log.slice(-3000));
    assert.deepEqual(
      posts().map((c) => c.method),
      ['POST', 'PATCH'],
      'the second run updates its comment, never a second one',
    );
    assert.equal(api.state.comments.length, 1);
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
      ['/repos/acme/ingress/issues/9/comments'],
    );
    const spoofed = await comment(104, { sha: 'c'.repeat(40), owner: 'contrib', branch: 'feature' });
    assert.equal(spoofed.code, 0, spoofed.log.slice(-3000));
    assert.match(spoofed.log, /no open pull request has head c{40}/);
    assert.equal(posts().length, before + 1, 'a spoofed head posts nothing');
    const calls = api.state.calls.length;
    const cancelled = await comment(105, { conclusion: 'cancelled' });
    assert.equal(cancelled.code, 0, cancelled.log.slice(-3000));
    assert.equal(api.state.calls.length, calls, 'a cancelled run makes no call at all (the job is skipped)');
  },
);
