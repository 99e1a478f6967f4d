// The verdict as a GitHub check run on the PR's head commit, beside the sticky comment:
// reviewers see it among the PR's checks, and its annotations on the lines of the diff
// that set what the verdict names. Created once per head commit, then updated.
// Where the caller did not grant `checks: write`, the comment still stands: the check run
// is left out with a warning (an adopter's older workflow).
import { ANNOTATION_LIMITS } from '../report/annotations.js';

export const CHECK_NAME = 'tailgate';
/** Each gate its own check run; the gate of matrix "pr" keeps the name adopters require. */
export const checkNameFor = (gate) => (!gate || gate === 'pr' ? CHECK_NAME : `${CHECK_NAME} (${gate})`);
// GitHub's limit for a check run's output.summary.
export const CHECK_SUMMARY_LIMIT = 65_535;
const APP = 'github-actions';

/**
 * success only for a pass or an improvement (exit 0) that is the verdict of record: a
 * first look that asked for a confirmation round and is all that arrived means the round
 * never reported — inconclusive, never a success.
 */
export const conclusionOf = (meta) => (meta.exitCode === 0 && !meta.pending ? 'success' : 'failure');

/**
 * The annotations the artifact asks for, kept only on files this PR changed (GitHub's
 * own list of the PR's files, never the artifact's): a forked or forged artifact cannot
 * point into another PR or at a file the PR did not touch.
 */
export async function prAnnotations(github, { owner, repo, pullNumber, meta }) {
  const wanted = meta.annotations ?? [];
  if (!wanted.length) return [];
  const files = await github.paginate(github.rest.pulls.listFiles, {
    owner,
    repo,
    pull_number: pullNumber,
    per_page: 100,
  });
  const changed = new Set(files.filter((f) => f.status !== 'removed').map((f) => f.filename));
  const level = conclusionOf(meta) === 'success' ? 'notice' : 'failure';
  return wanted
    .filter((a) => changed.has(a.path))
    .slice(0, ANNOTATION_LIMITS.count)
    .map((a) => ({
      path: a.path,
      start_line: a.line,
      end_line: a.line,
      annotation_level: level,
      title: 'tailgate',
      message: a.message,
    }));
}

export function checkOutput(body, annotations) {
  const title = /^### (.+)$/m.exec(body)?.[1]?.replace(/[*_`]/g, '').slice(0, 200) ?? 'tailgate';
  const summary =
    body.length > CHECK_SUMMARY_LIMIT
      ? `${body.slice(0, CHECK_SUMMARY_LIMIT - 200)}\n\n_(truncated to GitHub's check summary limit; the PR comment has it all)_\n`
      : body;
  return { title, summary, annotations };
}

/** Creates tailgate's check run on the head commit, or updates the one it made. */
export async function upsertCheckRun(github, { owner, repo, headSha, meta, output }) {
  const name = checkNameFor(meta.gate);
  const { data } = await github.rest.checks.listForRef({
    owner,
    repo,
    ref: headSha,
    check_name: name,
    per_page: 100,
  });
  const mine = (data.check_runs ?? []).find((c) => c.app?.slug === APP && c.head_sha === headSha && c.name === name);
  const fields = { status: 'completed', conclusion: conclusionOf(meta), output };
  if (mine) {
    await github.rest.checks.update({ owner, repo, check_run_id: mine.id, ...fields });
    return { action: 'updated', id: mine.id };
  }
  const created = await github.rest.checks.create({ owner, repo, name, head_sha: headSha, ...fields });
  return { action: 'created', id: created.data.id };
}
