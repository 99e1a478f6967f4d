// Append-only, whole: the history branch's every commit since the last verified point only
// adds lines to the store. Checking the worktree against the branch tip alone (branch.js)
// lets a tip that itself rewrote or removed records pass, and the next append builds on
// the rewritten past. So the chain is read commit by commit — from the last verified
// point when the caller holds one (which must then be an ancestor of the tip: a branch
// rewritten under it is a non-fast-forward, refused), else from the branch's first commit —
// and a commit that removed or changed a line of history/ is refused naming the commit and
// the record. A merge is refused too: the store's history is one line of appends.
import { check, runSync } from '../exec/run.js';
import { shown } from '../names.js';

const SHA = /^[0-9a-f]{40}$/;
const SHOWN = 5;

/**
 * `git log --format=%x01%H%x02%s --numstat --no-renames` -> [{ commit, subject, rewritten:
 * [paths whose deleted count is not 0, a binary file's '-' too] }], oldest first as given.
 */
export function commitsWithRewrites(log) {
  const out = [];
  for (const line of log.split('\n')) {
    if (line.startsWith('\x01')) {
      const [commit, subject = ''] = line.slice(1).split('\x02');
      out.push({ commit, subject, rewritten: [] });
    } else if (line && out.length) {
      const [, deleted, ...path] = line.split('\t');
      if (deleted !== undefined && deleted !== '0') out.at(-1).rewritten.push(path.join('\t'));
    }
  }
  return out;
}

/**
 * The first record a commit removed or changed in one file, from `git diff -U0`: its
 * line number in the parent and its text (or null when git shows no removed line).
 */
export function firstRemovedRecord(diff) {
  let line = null;
  for (const l of diff.split('\n')) {
    const hunk = /^@@ -(\d+)(?:,\d+)? \+/.exec(l);
    if (hunk) line = Number(hunk[1]);
    else if (line !== null && l.startsWith('-') && !l.startsWith('---')) return { line, text: l.slice(1) };
  }
  return null;
}

// A record named as people find it: its run's commit and time, else its first characters.
function recordName(text) {
  try {
    const r = JSON.parse(text);
    if (r && typeof r.commit === 'string')
      return `the record of run ${shown(r.commit, 40)}${typeof r.time === 'string' ? ` at ${shown(r.time, 40)}` : ''}`;
  } catch {
    // not JSON: shown as it stands
  }
  return `the line ${JSON.stringify(shown(text, 80))}`;
}

/**
 * What breaks append-only in the branch's commits after `since` (the last verified point,
 * a 40-hex commit) up to HEAD, or in all of them without it: one line each (none: []).
 */
export function chainProblems(worktree, { since = '' } = {}) {
  const git = (args, what) => check(runSync(['git', '-C', worktree, ...args]), what).stdout;
  // A branch started this run has nothing to rewrite — unless one was verified before:
  // then it was deleted.
  if (runSync(['git', '-C', worktree, 'rev-parse', '-q', '--verify', 'HEAD^{commit}']).code !== 0)
    return since
      ? [`the branch has no commit, and ${shown(since, 12)} was verified before: it was deleted; restore it from there`]
      : [];
  const tip = git(['rev-parse', 'HEAD'], 'read the branch tip').trim();
  if (since) {
    if (!SHA.test(since)) return [`the last verified point "${shown(since, 60)}" is not a 40-hex commit`];
    const known = runSync(['git', '-C', worktree, 'cat-file', '-e', `${since}^{commit}`]).code === 0;
    const ancestor = known && runSync(['git', '-C', worktree, 'merge-base', '--is-ancestor', since, tip]).code === 0;
    if (!ancestor)
      return [
        `non-fast-forward: the branch tip ${tip.slice(0, 12)} does not descend from ${since.slice(0, 12)}, the last verified point${known ? '' : ' (not in this clone at all)'} — the branch was rewritten or replaced; restore it from ${since.slice(0, 12)}, never build on it`,
      ];
  }
  const range = since ? [`${since}..${tip}`] : [tip];
  const problems = [];
  const merges = git(['rev-list', '--min-parents=2', ...range], 'list merges')
    .split('\n')
    .filter(Boolean);
  if (merges.length)
    problems.push(
      `merge commits ${merges
        .slice(0, SHOWN)
        .map((c) => c.slice(0, 12))
        .join(', ')} — the history branch is one line of appends`,
    );
  const log = git(
    [
      'log',
      '--reverse',
      '--no-merges',
      '--format=%x01%H%x02%s',
      '--numstat',
      '--no-renames',
      ...range,
      '--',
      'history',
    ],
    'read the branch',
  );
  for (const c of commitsWithRewrites(log).filter((x) => x.rewritten.length)) {
    const [file] = c.rewritten;
    const diff = runSync(['git', '-C', worktree, 'diff', '-U0', '--no-renames', `${c.commit}^`, c.commit, '--', file]);
    const rec = diff.code === 0 ? firstRemovedRecord(diff.stdout) : null;
    const more = c.rewritten.length > 1 ? ` (and ${c.rewritten.length - 1} more file(s))` : '';
    problems.push(
      `commit ${c.commit.slice(0, 12)} "${shown(c.subject, 80)}" removed or changed ${rec ? `${file}:${rec.line}, ${recordName(rec.text)}` : file}${more} — the history is append-only`,
    );
  }
  return problems;
}

/** The count of commits checked: for the CLI's one line of what was verified. */
export function chainLength(worktree, { since = '' } = {}) {
  const r = runSync(['git', '-C', worktree, 'rev-list', '--count', since ? `${since}..HEAD` : 'HEAD']);
  return r.code === 0 ? Number(r.stdout.trim()) : 0;
}
