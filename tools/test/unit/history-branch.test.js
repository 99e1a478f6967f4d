// The history branch's rules (history/branch.js, `tailgate history check`, what
// tools/ci/history.sh runs around its append): appending passes; a rewritten or removed
// line, and a symbolic link tracked or on disk, are refused naming the file.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { branchProblems, linksOnDisk, rewrittenFiles, trackedLinks } from '../../src/history/branch.js';
import { runCli } from '../helpers/cli.js';
import { scratchDir } from '../helpers/scratch.js';

const SERIES = 'history/ci/nginx/default/steady.jsonl';
const LINES = ['{"commit":"a1"}\n', '{"commit":"b2"}\n'];

// The branch as history.sh checks it out: a worktree whose last commit holds the store
// and the page.
function branch({ commit = true } = {}) {
  const dir = scratchDir('tg-hist-branch-');
  const git = (...a) => {
    const r = spawnSync('git', ['-C', dir, ...a], { encoding: 'utf8' });
    assert.equal(r.status, 0, `git ${a.join(' ')}: ${r.stderr}`);
  };
  git('init', '-q');
  git('config', 'user.email', 't@example.com');
  git('config', 'user.name', 't');
  write(dir, SERIES, LINES.join(''));
  write(dir, 'site/index.html', '<p>history</p>\n');
  if (commit) {
    git('add', '-A');
    git('commit', '-qm', 'history');
  }
  return { dir, git };
}

function write(dir, rel, text) {
  mkdirSync(dirname(join(dir, rel)), { recursive: true });
  writeFileSync(join(dir, rel), text);
}

test('history branch: appending to a series, or a new series, keeps its rules (check: exit 0)', async () => {
  const { dir } = branch();
  assert.deepEqual(branchProblems(dir), []);
  appendFileSync(join(dir, SERIES), '{"commit":"c3"}\n');
  write(dir, 'history/ci/haproxy/default/steady.jsonl', '{"commit":"c3"}\n');
  write(dir, 'site/index.html', '<p>history, rebuilt</p>\n'); // the page is rebuilt, not appended
  assert.deepEqual(branchProblems(dir), []);
  const { code, out } = await runCli(['history', 'check', '--worktree', dir]);
  assert.equal(code, 0, out);
  assert.match(out, /regular files only/);
});

test('history branch: an earlier line rewritten, or removed, is refused naming the series (exit 2)', async () => {
  const { dir } = branch();
  write(dir, SERIES, `{"commit":"a1","edited":true}\n${LINES[1]}{"commit":"c3"}\n`);
  const [problem] = branchProblems(dir);
  assert.match(
    problem,
    /lines removed or changed in history\/ci\/nginx\/default\/steady\.jsonl — the history is append-only/,
  );
  const { code, out } = await runCli(['history', 'check', '--worktree', dir]);
  assert.equal(code, 2, out);
  assert.match(out, /breaks its rules[\s\S]*steady\.jsonl — the history is append-only/);

  write(dir, SERIES, LINES[1]); // the first line dropped
  assert.equal(branchProblems(dir).length, 1);
  rmSync(join(dir, SERIES)); // the whole series
  assert.match(branchProblems(dir)[0], /steady\.jsonl/);
});

test('history branch: a symbolic link is refused — on disk, or committed to the branch', async () => {
  const { dir, git } = branch();
  symlinkSync('/etc/hostname', join(dir, 'history/ci/nginx/default/spike.jsonl'));
  assert.deepEqual(linksOnDisk(dir), ['history/ci/nginx/default/spike.jsonl']);
  assert.match(
    branchProblems(dir)[0],
    /symbolic links: history\/ci\/nginx\/default\/spike\.jsonl — the history holds regular files only/,
  );
  const { code, out } = await runCli(['history', 'check', '--worktree', dir]);
  assert.equal(code, 2, out);
  assert.match(out, /spike\.jsonl/);

  // Committed, then gone from disk: the index still names it.
  symlinkSync('../../..', join(dir, 'site/up'));
  git('add', '-A');
  git('commit', '-qm', 'links');
  rmSync(join(dir, 'site/up'));
  assert.match(branchProblems(dir).join('\n'), /site\/up/);

  // The store's folder itself a link: the append would land wherever it points.
  const other = branch();
  rmSync(join(other.dir, 'site'), { recursive: true });
  symlinkSync(scratchDir('tg-hist-elsewhere-'), join(other.dir, 'site'));
  assert.match(branchProblems(other.dir).join('\n'), /symbolic links: site —/);
});

test('history branch: a branch started this run (no commit yet) has nothing to rewrite', () => {
  const { dir } = branch({ commit: false });
  assert.deepEqual(branchProblems(dir), []);
});

test("history branch: git's lists as the rules read them — links by mode, rewrites by deleted lines", () => {
  const ls = [
    '100644 e69de29 0\thistory/a.jsonl',
    '120000 0123abc 0\tsite/up',
    '120000 0123abc 0\thistory/b c.jsonl',
    '',
  ];
  assert.deepEqual(trackedLinks(ls.join('\0')), ['site/up', 'history/b c.jsonl']);
  const numstat = [
    '3\t0\thistory/grew.jsonl',
    '1\t1\thistory/edited.jsonl',
    '0\t4\thistory/cut.jsonl',
    '-\t-\thistory/bin',
    '',
  ];
  assert.deepEqual(rewrittenFiles(numstat.join('\0')), ['history/edited.jsonl', 'history/cut.jsonl', 'history/bin']);
  assert.deepEqual(rewrittenFiles(''), []);
});
