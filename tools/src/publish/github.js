// GitHub calls for the sticky comment, against an Octokit-like client (the one
// actions/github-script provides, or a fake in tests).
import { GITHUB_COMMENT_LIMIT, markerFor } from '../report/markdown.js';

export const BOT = 'github-actions[bot]';

/**
 * The open PR of this repository whose head is this commit; never a number from the
 * artifact. A commit that exists only in a fork is unknown to the base repository's
 * commit→PR index (the call returns []), so the run's head repository owner and branch
 * find it instead (pulls.list with head "owner:branch"). Either way the PR must target
 * this repository and its head must be exactly the run's head SHA: a fork cannot aim
 * the comment at another PR.
 */
export async function findPullRequest(github, { owner, repo, headSha, headOwner = null, headBranch = null }) {
  const ours = (pr) =>
    pr.state === 'open' &&
    pr.head?.sha === headSha &&
    (!pr.base?.repo || pr.base.repo.full_name === `${owner}/${repo}`);
  const { data } = await github.rest.repos.listPullRequestsAssociatedWithCommit({ owner, repo, commit_sha: headSha });
  const direct = data.find(ours);
  if (direct || !headOwner || !headBranch) return direct ?? null;
  const pulls = await github.paginate(github.rest.pulls.list, {
    owner,
    repo,
    state: 'open',
    head: `${headOwner}:${headBranch}`,
    per_page: 100,
  });
  return pulls.find(ours) ?? null;
}

/** Updates tailgate's own comment (marker + author) or creates it. Returns {action, id}. */
export async function upsertComment(github, { owner, repo, issueNumber, body, gate = null, botLogin = BOT }) {
  const text =
    body.length > GITHUB_COMMENT_LIMIT
      ? `${body.slice(0, GITHUB_COMMENT_LIMIT - 200)}\n\n_(truncated to GitHub's comment size limit)_\n`
      : body;
  const comments = await github.paginate(github.rest.issues.listComments, {
    owner,
    repo,
    issue_number: issueNumber,
    per_page: 100,
  });
  // Someone quoting the marker in their own comment must not have it overwritten.
  const marker = markerFor(gate);
  const mine = comments.find((c) => c.user?.login === botLogin && c.body?.startsWith(marker));
  if (mine) {
    await github.rest.issues.updateComment({ owner, repo, comment_id: mine.id, body: text });
    return { action: 'updated', id: mine.id };
  }
  const { data } = await github.rest.issues.createComment({ owner, repo, issue_number: issueNumber, body: text });
  return { action: 'created', id: data.id };
}
