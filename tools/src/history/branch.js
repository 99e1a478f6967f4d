// The history branch's two rules, checked where it is checked out (tools/ci/history.sh runs
// `tailgate history check` before it appends and again after): regular files only — a link
// committed to the branch would send the append or the page outside the worktree — and
// append-only — a tracked file of the store only grows; a line removed or rewritten is not
// history. The rules read what git says of the worktree, parsed here (unit-tested).
import { lstatSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { check, runSync } from '../exec/run.js';

// What the branch holds: the store and the page built from it.
export const BRANCH_FOLDERS = Object.freeze(['history', 'site']);
const SHOWN = 5; // paths named per rule; the count says how many more

/** Links git tracks: `git ls-files -s -z` entries with mode 120000 → their paths. */
export function trackedLinks(lsFiles) {
  return lsFiles
    .split('\0')
    .filter((e) => e.startsWith('120000 '))
    .map((e) => e.slice(e.indexOf('\t') + 1));
}

/** Symbolic links on disk under `folders` of `dir`, relative to `dir` (none followed). */
export function linksOnDisk(dir, folders = BRANCH_FOLDERS) {
  const out = [];
  const walk = (p) => {
    const st = lstatSync(p, { throwIfNoEntry: false });
    if (st?.isSymbolicLink()) out.push(relative(dir, p));
    else if (st?.isDirectory()) for (const e of readdirSync(p)) walk(join(p, e));
  };
  for (const f of folders) walk(join(dir, f));
  return out;
}

/** Files with a line removed or changed: `git diff --numstat -z --no-renames` entries
 *  ("added\tdeleted\tpath") whose deleted count is not 0 — a binary file's "-" too. Lines
 *  only added, at the end or anywhere, are an append. */
export function rewrittenFiles(numstat) {
  return numstat
    .split('\0')
    .filter(Boolean)
    .map((e) => e.split('\t'))
    .filter(([, deleted]) => deleted !== '0')
    .map(([, , ...path]) => path.join('\t'));
}

/** What breaks the branch's rules in `worktree`, one line per rule broken (none: []). */
export function branchProblems(worktree) {
  const git = (args, what) => check(runSync(['git', '-C', worktree, ...args]), what).stdout;
  const problems = [];
  const tracked = trackedLinks(git(['ls-files', '-s', '-z', '--', ...BRANCH_FOLDERS], 'list the branch'));
  const links = [...new Set([...tracked, ...linksOnDisk(worktree)])].sort();
  if (links.length) problems.push(`symbolic links: ${named(links)} — the history holds regular files only`);
  // A branch started this run has no commit yet: nothing it held can have been rewritten.
  if (runSync(['git', '-C', worktree, 'rev-parse', '-q', '--verify', 'HEAD']).code === 0) {
    const numstat = git(['diff', '--numstat', '-z', '--no-renames', 'HEAD', '--', 'history'], 'diff the store');
    const rewritten = rewrittenFiles(numstat);
    if (rewritten.length) problems.push(`lines removed or changed in ${named(rewritten)} — the history is append-only`);
  }
  return problems;
}

function named(paths) {
  const more = paths.length - SHOWN;
  return `${paths.slice(0, SHOWN).join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}
