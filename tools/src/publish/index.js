// Entry point for bench-comment.yml (actions/github-script imports this file; the
// workflow holds no logic). Reads the downloaded artifact, validates it, finds the
// PR from the triggering run's head SHA and upserts the sticky comment.
import { readCommentArtifact } from './artifact.js';
import { findPullRequest, upsertComment } from './github.js';

export async function publishFromWorkflowRun({ github, context, core, env = process.env }) {
  const { owner, repo } = context.repo;
  const repoUrl = `${env.GITHUB_SERVER_URL ?? 'https://github.com'}/${owner}/${repo}`;
  const { body, meta } = readCommentArtifact(env.ARTIFACT_DIR, { repoUrl });
  const pr = await findPullRequest(github, {
    owner,
    repo,
    headSha: env.HEAD_SHA,
    headOwner: env.HEAD_OWNER || null,
    headBranch: env.HEAD_BRANCH || null,
  });
  if (!pr) {
    core.notice(`no open pull request has head ${env.HEAD_SHA}; nothing to comment on`);
    return { action: 'none' };
  }
  const result = await upsertComment(github, { owner, repo, issueNumber: pr.number, body });
  core.info(`${result.action} comment ${result.id} on #${pr.number} (verdict ${meta.overall})`);
  return { ...result, pr: pr.number };
}
