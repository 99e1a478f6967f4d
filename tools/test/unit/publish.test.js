// The publishing side of the PR gate: artifact validation against hostile input,
// the sticky comment through a fake GitHub client, and the gate job's exact output.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { readCommentArtifact } from '../../src/publish/artifact.js';
import { findPullRequest, upsertComment } from '../../src/publish/github.js';
import { publishFromWorkflowRun } from '../../src/publish/index.js';
import { MARKER } from '../../src/report/markdown.js';
import { scratchDir } from '../helpers/scratch.js';

const ROOT = new URL('../../../', import.meta.url).pathname;
const REPO = 'https://github.com/o/r';
const GOLDEN = new URL('../fixtures/golden/', import.meta.url);
const goodBody = readFileSync(new URL('comment.md', GOLDEN), 'utf8');
const goodMeta = JSON.stringify({ kind: 'tailgate.comment', schemaVersion: 1, overall: 'regression', exitCode: 1 });

function artifact(files) {
  const dir = scratchDir('tg-art-');
  for (const [name, content] of Object.entries(files)) {
    // Names are single path components: a test must never write outside its temp dir.
    assert.ok(!name.includes('/') && name !== '..' && name !== '.', `unsafe fixture name ${name}`);
    if (content?.symlink) symlinkSync(content.symlink, join(dir, name));
    else if (content?.dir) mkdirSync(join(dir, name));
    else writeFileSync(join(dir, name), content);
  }
  return dir;
}

const rejects = (files, pattern) =>
  assert.throws(
    () => readCommentArtifact(artifact(files), { repoUrl: REPO }),
    (err) => {
      assert.match([err.message, ...err.details].join('\n'), pattern);
      return true;
    },
  );

test('artifact: a valid payload is accepted', () => {
  const { body, meta } = readCommentArtifact(artifact({ 'comment.md': goodBody, 'meta.json': goodMeta }), {
    repoUrl: REPO,
  });
  assert.equal(body, goodBody);
  assert.equal(meta.overall, 'regression');
});

test('artifact: hostile payloads are rejected with the reason', () => {
  rejects({ 'comment.md': goodBody, 'meta.json': goodMeta, '..%2F..%2Fetc%2Fpasswd': 'x' }, /unexpected entry/);
  rejects({ 'comment.md': goodBody, 'meta.json': goodMeta, '.hidden': 'x' }, /unexpected entry "\.hidden"/);
  rejects(
    { 'comment.md': goodBody, 'meta.json': { symlink: '../../../../etc/hostname' } },
    /meta\.json is not a regular file/,
  );
  rejects({ 'comment.md': { symlink: '/etc/passwd' }, 'meta.json': goodMeta }, /comment\.md is not a regular file/);
  rejects({ 'comment.md': goodBody, 'meta.json': goodMeta, nested: { dir: true } }, /unexpected entry "nested"/);
  rejects({ 'comment.md': goodBody + 'x'.repeat(70_000), 'meta.json': goodMeta }, /over the 65536 limit/);
  rejects({ 'comment.md': goodBody }, /meta\.json is missing/);
  rejects(
    {
      'comment.md': goodBody,
      'meta.json': JSON.stringify({ kind: 'tailgate.comment', schemaVersion: 1, overall: 'pass', exitCode: 0, pr: 7 }),
    },
    /and nothing else/,
  );
  rejects(
    {
      'comment.md': goodBody,
      'meta.json': JSON.stringify({ kind: 'tailgate.comment', schemaVersion: 1, overall: 'pwned', exitCode: 0 }),
    },
    /meta\.json must be/,
  );
  rejects({ 'comment.md': 'hello', 'meta.json': goodMeta }, /does not start with its gate's tailgate marker/);
  rejects({ 'comment.md': `${MARKER}\n<img src=x onerror=alert(1)>`, 'meta.json': goodMeta }, /HTML other than/);
  rejects({ 'comment.md': `${MARKER}\nthanks @octocat`, 'meta.json': goodMeta }, /@-mention/);
  rejects(
    { 'comment.md': `${MARKER}\n[click](https://evil.example/x)`, 'meta.json': goodMeta },
    /links outside https:\/\/github\.com\/o\/r/,
  );
  rejects(
    { 'comment.md': `${MARKER}\n[x][1]\n\n[1]: https://evil.example`, 'meta.json': goodMeta },
    /reference-style links/,
  );
});

function fakeGitHub({ comments = [], pulls = [], forkPulls = [], checksStatus = null } = {}) {
  const calls = [];
  const checkRuns = [];
  let nextId = 1000;
  // checksStatus: what GitHub answers a token without checks: write (403).
  const checks = (fn) => async (a) => {
    if (checksStatus)
      throw Object.assign(new Error('Resource not accessible by integration'), { status: checksStatus });
    return fn(a);
  };
  const gh = {
    calls,
    comments,
    checkRuns,
    paginate: async (fn, args) => (await fn(args)).data,
    rest: {
      repos: {
        listPullRequestsAssociatedWithCommit: async (a) => (calls.push(['listPRs', a.commit_sha]), { data: pulls }),
      },
      // pulls.list filtered by head "owner:branch", as GitHub does.
      pulls: {
        list: async (a) => (
          calls.push(['pulls', a.head]),
          { data: forkPulls.filter((p) => `${p.head.repo.owner.login}:${p.head.ref}` === a.head) }
        ),
      },
      checks: {
        listForRef: checks(
          async (a) => (
            calls.push(['checks', a.ref]),
            { data: { check_runs: checkRuns.filter((c) => c.head_sha === a.ref) } }
          ),
        ),
        create: checks(async (a) => {
          const c = { id: nextId++, ...a, app: { slug: 'github-actions' } };
          checkRuns.push(c);
          calls.push(['create-check', a.head_sha]);
          return { data: c };
        }),
        update: checks(async (a) => {
          Object.assign(
            checkRuns.find((c) => c.id === a.check_run_id),
            a,
          );
          calls.push(['update-check', a.check_run_id]);
          return { data: {} };
        }),
      },
      issues: {
        listComments: async (a) => (
          calls.push(['list', a.issue_number]),
          { data: comments.filter((c) => c.issue === a.issue_number) }
        ),
        createComment: async (a) => {
          const c = { id: nextId++, issue: a.issue_number, body: a.body, user: { login: 'github-actions[bot]' } };
          comments.push(c);
          calls.push(['create', a.issue_number]);
          return { data: c };
        },
        updateComment: async (a) => {
          comments.find((c) => c.id === a.comment_id).body = a.body;
          calls.push(['update', a.comment_id]);
          return { data: {} };
        },
      },
    },
  };
  return gh;
}

test('publish: first run creates the comment, later runs update the same one', async () => {
  const gh = fakeGitHub();
  const first = await upsertComment(gh, { owner: 'o', repo: 'r', issueNumber: 7, body: `${MARKER}\nrun 1` });
  const second = await upsertComment(gh, { owner: 'o', repo: 'r', issueNumber: 7, body: `${MARKER}\nrun 2` });
  assert.equal(first.action, 'created');
  assert.equal(second.action, 'updated');
  assert.equal(second.id, first.id);
  assert.equal(gh.comments.length, 1);
  assert.match(gh.comments[0].body, /run 2/);
});

test('publish: a comment by someone else that quotes the marker is left alone', async () => {
  const gh = fakeGitHub({
    comments: [{ id: 1, issue: 7, body: `${MARKER}\nI copied this`, user: { login: 'mallory' } }],
  });
  const r = await upsertComment(gh, { owner: 'o', repo: 'r', issueNumber: 7, body: `${MARKER}\nreal` });
  assert.equal(r.action, 'created');
  assert.equal(gh.comments[0].body, `${MARKER}\nI copied this`);
});

test('publish: an oversized body is truncated under the limit', async () => {
  const gh = fakeGitHub();
  await upsertComment(gh, { owner: 'o', repo: 'r', issueNumber: 7, body: `${MARKER}\n${'y'.repeat(80_000)}` });
  assert.ok(gh.comments[0].body.length <= 65_536);
  assert.match(gh.comments[0].body, /truncated/);
});

test('publish: the PR comes from the head SHA through the API, open and matching only', async () => {
  const gh = fakeGitHub({
    pulls: [
      { number: 3, state: 'closed', head: { sha: 'abc' } },
      { number: 9, state: 'open', head: { sha: 'other' } },
      { number: 12, state: 'open', head: { sha: 'abc' } },
    ],
  });
  assert.equal((await findPullRequest(gh, { owner: 'o', repo: 'r', headSha: 'abc' })).number, 12);
  assert.equal(await findPullRequest(gh, { owner: 'o', repo: 'r', headSha: 'zzz' }), null);
});

test('publish: a fork PR (commit unknown to the base repository) gets its comment; a spoofed one does not', async () => {
  const base = { repo: { full_name: 'o/r' } };
  const forkPr = {
    number: 21,
    state: 'open',
    head: { sha: 'f00', ref: 'feature', repo: { owner: { login: 'contrib' } } },
    base,
  };
  // Same branch name and owner, but the PR targets another repository, or its head moved on.
  const otherBase = {
    number: 22,
    state: 'open',
    head: { sha: 'f00', ref: 'feature', repo: { owner: { login: 'contrib' } } },
    base: { repo: { full_name: 'else/where' } },
  };
  const moved = {
    number: 23,
    state: 'open',
    head: { sha: 'newer', ref: 'moved', repo: { owner: { login: 'contrib' } } },
    base,
  };
  const gh = fakeGitHub({ pulls: [], forkPulls: [otherBase, forkPr, moved] });
  assert.equal(
    (await findPullRequest(gh, { owner: 'o', repo: 'r', headSha: 'f00', headOwner: 'contrib', headBranch: 'feature' }))
      .number,
    21,
  );
  assert.equal(
    await findPullRequest(gh, { owner: 'o', repo: 'r', headSha: 'f00', headOwner: 'contrib', headBranch: 'moved' }),
    null,
    'head SHA must match the run',
  );
  const spoof = fakeGitHub({ pulls: [], forkPulls: [otherBase] });
  assert.equal(
    await findPullRequest(spoof, {
      owner: 'o',
      repo: 'r',
      headSha: 'f00',
      headOwner: 'contrib',
      headBranch: 'feature',
    }),
    null,
    'a PR against another repository',
  );
  const logs = [];
  const core = { info: (m) => logs.push(m), notice: (m) => logs.push(m) };
  const r = await publishFromWorkflowRun({
    github: gh,
    context: { repo: { owner: 'o', repo: 'r' } },
    core,
    env: {
      ARTIFACT_DIR: artifact({ 'comment.md': goodBody, 'meta.json': goodMeta }),
      HEAD_SHA: 'f00',
      HEAD_OWNER: 'contrib',
      HEAD_BRANCH: 'feature',
      GITHUB_SERVER_URL: 'https://github.com',
    },
  });
  assert.deepEqual([r.action, r.pr], ['created', 21]);
});

// The entry point as bench-comment.yml calls it, for head 'abc' and a good artifact.
const publishGood = (github, core, dir) =>
  publishFromWorkflowRun({
    github,
    context: { repo: { owner: 'o', repo: 'r' } },
    core,
    env: { ARTIFACT_DIR: dir, HEAD_SHA: 'abc', GITHUB_SERVER_URL: 'https://github.com' },
  });

test('publish: the workflow entry point validates, finds the PR and upserts', async () => {
  const gh = fakeGitHub({ pulls: [{ number: 12, state: 'open', head: { sha: 'abc' } }] });
  const logs = [];
  const core = { info: (m) => logs.push(m), notice: (m) => logs.push(m) };
  const dir = artifact({ 'comment.md': goodBody, 'meta.json': goodMeta });
  const r = await publishGood(gh, core, dir);
  assert.deepEqual([r.action, r.pr], ['created', 12]);
  assert.match(logs.join(), /verdict regression/);
  assert.deepEqual(
    gh.checkRuns.map((c) => [c.name, c.head_sha, c.conclusion]),
    [['tailgate', 'abc', 'failure']],
  );
  await publishGood(gh, core, dir);
  assert.equal(gh.checkRuns.length, 1, 'updated, never a second check run');
});

test('publish: a caller that did not grant checks: write still gets its comment, and a warning saying what to add', async () => {
  const gh = fakeGitHub({ pulls: [{ number: 12, state: 'open', head: { sha: 'abc' } }], checksStatus: 403 });
  const warnings = [];
  const core = { info: () => {}, notice: () => {}, warning: (m) => warnings.push(m) };
  const dir = artifact({ 'comment.md': goodBody, 'meta.json': goodMeta });
  const r = await publishGood(gh, core, dir);
  assert.deepEqual([r.action, r.pr, r.check.action], ['created', 12, 'none']);
  assert.match(warnings.join(), /checks: write/);
});

test('gate job, run locally on real local-target results: exit code and the exact comment body', () => {
  const out = scratchDir('tg-gate-');
  const summary = join(out, 'summary.md');
  const r = spawnSync(join(ROOT, 'tools/ci/gate.sh'), [], {
    encoding: 'utf8',
    env: {
      ...process.env,
      MODE: 'paired',
      BASE_RESULTS: join(ROOT, 'tools/test/fixtures/runs/base'),
      RESULTS: join(ROOT, 'tools/test/fixtures/runs/head'),
      OUT: out,
      RUN_URL: 'https://github.com/o/r/actions/runs/42',
      GITHUB_STEP_SUMMARY: summary,
    },
  });
  const body = readFileSync(join(out, 'comment', 'comment.md'), 'utf8');
  const url = new URL('gate-comment.md', GOLDEN);
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(url, body);
  assert.equal(body, readFileSync(url, 'utf8'), 'gate-comment.md differs (UPDATE_GOLDEN=1 to regenerate after review)');
  const verdict = JSON.parse(readFileSync(join(out, 'verdict.json'), 'utf8'));
  assert.equal(r.status, verdict.exitCode, r.stdout + r.stderr);
  assert.equal(readFileSync(summary, 'utf8'), body, 'job summary gets the same body');
  const { meta } = readCommentArtifact(join(out, 'comment'), { repoUrl: REPO });
  assert.equal(meta.overall, verdict.overall);
});

// After the verdict nothing may turn it green (gate.sh `closed`): each step made to fail
// on purpose — report, its comment, the job summary, the confirmation matrix, the step
// output — keeps a regression's exit code and makes a passing verdict an infrastructure
// error. Before, a failed report step left no confirm.json and the script exited 0.
test('gate job fails closed: a failing step after the verdict is never exit 0', () => {
  const runGate = (head, sabotage) => {
    const out = scratchDir('tg-gate-closed-');
    const env = {
      ...process.env,
      MODE: 'paired',
      BASE_RESULTS: join(ROOT, 'tools/test/fixtures/runs/base'),
      RESULTS: join(ROOT, 'tools/test/fixtures/runs', head),
      OUT: out,
      GITHUB_STEP_SUMMARY: join(out, 'summary.md'),
      GITHUB_OUTPUT: join(out, 'output.txt'),
    };
    sabotage(out, env);
    const r = spawnSync(join(ROOT, 'tools/ci/gate.sh'), [], { encoding: 'utf8', env });
    return { code: r.status, log: r.stdout + r.stderr };
  };
  const steps = {
    report: (out) => mkdirSync(join(out, 'comment', 'comment.md'), { recursive: true }),
    'confirmation matrix': (out) => mkdirSync(join(out, 'confirm.json'), { recursive: true }),
    'job summary': (out, env) => mkdirSync(env.GITHUB_STEP_SUMMARY, { recursive: true }),
    'step output': (out, env) => mkdirSync(env.GITHUB_OUTPUT, { recursive: true }),
  };
  for (const [head, code] of [
    ['head', 1],
    ['base', 0],
  ]) {
    const clean = runGate(head, () => {});
    assert.equal(clean.code, code, `unsabotaged: ${clean.log}`);
    assert.doesNotMatch(clean.log, /fails closed/, 'nothing failed, nothing to close');
  }
  for (const [step, sabotage] of Object.entries(steps)) {
    const bad = runGate('head', sabotage);
    assert.equal(bad.code, 1, `${step} failing after a regression keeps exit 1: ${bad.log}`);
    assert.match(bad.log, /the gate fails closed/);
    const pass = runGate('base', sabotage);
    assert.equal(pass.code, 4, `${step} failing after a pass is an infrastructure error: ${pass.log}`);
  }
});
