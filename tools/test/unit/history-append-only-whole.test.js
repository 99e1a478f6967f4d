// Issue 59, item 6 — history append-only, whole: `tailgate history check` reads the
// history branch commit by commit (history/chain.js), back to the last verified point
// (--since) or the first commit, in a real git repository. Before, it compared the
// worktree with the tip only: a tip commit that itself rewrote or removed records passed.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { chainProblems, commitsWithRewrites, firstRemovedRecord } from '../../src/history/chain.js';
import { branchProblems } from '../../src/history/branch.js';
import { runCli } from '../helpers/cli.js';
import { scratchDir } from '../helpers/scratch.js';

const SERIES = 'history/ci/nginx/default/steady.jsonl';
const record = (commit, p99 = 3.1) =>
  `${JSON.stringify({ commit, time: `2026-11-0${commit.length}T02:00:00Z`, p99 })}\n`;

// The history branch: one commit per nightly append, as tools/ci/history.sh makes them.
function historyBranch(nights = ['a1', 'b22', 'c333']) {
  const dir = scratchDir('tg-hist-chain-');
  const git = (...a) => {
    const r = spawnSync('git', ['-C', dir, ...a], { encoding: 'utf8' });
    assert.equal(r.status, 0, `git ${a.join(' ')}: ${r.stderr}`);
    return r.stdout.trim();
  };
  git('init', '-q', '-b', 'tailgate-history');
  git('config', 'user.email', 't@example.com');
  git('config', 'user.name', 't');
  mkdirSync(dirname(join(dir, SERIES)), { recursive: true });
  const commits = [];
  for (const night of nights) {
    appendFileSync(join(dir, SERIES), record(night));
    writeFileSync(join(dir, 'site-note.txt'), `page for ${night}\n`); // outside history/: free to change
    git('add', '-A');
    git('commit', '-qm', `tailgate history: ${night}`);
    commits.push(git('rev-parse', 'HEAD'));
  }
  const commit = (message, change) => {
    change(join(dir, SERIES));
    git('add', '-A');
    git('commit', '-qm', message);
    return git('rev-parse', 'HEAD');
  };
  return { dir, git, commits, commit };
}

test('history append-only, whole: a clean chain of appends passes, from the first commit or from the last verified point', async () => {
  const { dir, commits } = historyBranch();
  assert.deepEqual(chainProblems(dir), []);
  assert.deepEqual(chainProblems(dir, { since: commits[0] }), []);
  const { code, out } = await runCli(['history', 'check', '--worktree', dir]);
  assert.equal(code, 0, out);
  assert.match(out, /the store only grew — 3 commit\(s\) since the first and the worktree/);
  const since = await runCli(['history', 'check', '--worktree', dir, '--since', commits[1]]);
  assert.equal(since.code, 0, since.out);
  assert.match(since.out, new RegExp(`1 commit\\(s\\) since ${commits[1].slice(0, 12)}`));
});

test('history append-only, whole: a tip commit that rewrote an earlier record is refused, naming the commit and the record', async () => {
  const { dir, commit } = historyBranch();
  const bad = commit('tailgate history: d4444', (f) =>
    writeFileSync(f, readFileSync(f, 'utf8').replace(record('b22'), record('b22', 2.0)) + record('d4444')),
  );
  // What the tip-only check said (and still says of the worktree): nothing wrong.
  assert.deepEqual(branchProblems(dir), []);
  const [problem, ...rest] = chainProblems(dir);
  assert.deepEqual(rest, []);
  assert.match(problem, new RegExp(`^commit ${bad.slice(0, 12)} "tailgate history: d4444" removed or changed`));
  assert.match(problem, /history\/ci\/nginx\/default\/steady\.jsonl:2, the record of run b22 at 2026-11-03T02:00:00Z/);
  assert.match(problem, /the history is append-only$/);
  const { code, out } = await runCli(['history', 'check', '--worktree', dir]);
  assert.equal(code, 2, out);
  assert.match(out, /the history branch breaks its rules/);
  assert.match(out, new RegExp(`commit ${bad.slice(0, 12)}`));
});

test('history append-only, whole: a record removed deep in the chain is refused though later appends look clean', () => {
  const { dir, commit } = historyBranch();
  const removed = commit('tidy', (f) => writeFileSync(f, readFileSync(f, 'utf8').replace(record('a1'), '')));
  commit('tailgate history: d4444', (f) => appendFileSync(f, record('d4444')));
  commit('tailgate history: e55555', (f) => appendFileSync(f, record('e55555')));
  const problems = chainProblems(dir);
  assert.equal(problems.length, 1, problems.join('\n'));
  assert.match(
    problems[0],
    new RegExp(`commit ${removed.slice(0, 12)} "tidy" removed or changed .*steady\\.jsonl:1, the record of run a1`),
  );
  // Verified after that commit (its past accepted then): what follows is checked only.
  assert.deepEqual(chainProblems(dir, { since: removed }), []);
});

test('history append-only, whole: a branch that no longer descends from the last verified point is refused (non-fast-forward), and so is a deleted one', () => {
  const { dir, git, commits, commit } = historyBranch();
  const verified = commits[2];
  // Force-pushed: reset before the verified tip and a clean-looking append on top.
  git('reset', '-q', '--hard', commits[0]);
  commit('tailgate history: c333 (again)', (f) => appendFileSync(f, record('c333', 1.0)));
  const [problem] = chainProblems(dir, { since: verified });
  assert.match(
    problem,
    new RegExp(`^non-fast-forward: the branch tip [0-9a-f]{12} does not descend from ${verified.slice(0, 12)}`),
  );
  assert.match(chainProblems(dir, { since: 'f'.repeat(40) })[0], /not in this clone at all/);
  assert.match(chainProblems(dir, { since: 'HEAD~1' })[0], /is not a 40-hex commit/);
  const empty = scratchDir('tg-hist-chain-empty-');
  spawnSync('git', ['-C', empty, 'init', '-q']);
  assert.deepEqual(chainProblems(empty), [], 'a branch started this run has nothing to rewrite');
  assert.match(chainProblems(empty, { since: verified })[0], /has no commit, .* it was deleted/);
});

test('history append-only, whole: a merge is refused — the history is one line of appends', () => {
  const { dir, git, commits } = historyBranch();
  git('checkout', '-q', '-b', 'side', commits[1]);
  writeFileSync(join(dir, 'other.txt'), 'x\n');
  git('add', '-A');
  git('commit', '-qm', 'side');
  git('checkout', '-q', 'tailgate-history');
  git('merge', '-q', '--no-edit', 'side');
  assert.match(chainProblems(dir).join('\n'), /merge commits [0-9a-f]{12} — the history branch is one line of appends/);
});

test("history append-only, whole: git's log and diff as the chain reads them", () => {
  const log =
    '\x01aaa\x02first\n3\t0\thistory/x.jsonl\n\n\x01bbb\x02second\n1\t1\thistory/x.jsonl\n-\t-\thistory/bin\n';
  assert.deepEqual(commitsWithRewrites(log), [
    { commit: 'aaa', subject: 'first', rewritten: [] },
    { commit: 'bbb', subject: 'second', rewritten: ['history/x.jsonl', 'history/bin'] },
  ]);
  const diff = 'diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -2 +2 @@\n-{"commit":"b"}\n+{"commit":"B"}\n';
  assert.deepEqual(firstRemovedRecord(diff), { line: 2, text: '{"commit":"b"}' });
  assert.equal(firstRemovedRecord('@@ -0,0 +1 @@\n+{"commit":"c"}\n'), null);
});
