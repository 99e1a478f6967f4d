// Entry point for bench-comment.yml (actions/github-script imports this file; the
// workflow holds no logic). Reads the downloaded artifact, validates it, finds the
// PR from the triggering run's head SHA, upserts the sticky comment and the check run.
import { readCommentArtifact } from './artifact.js';
import { findPullRequest, upsertComment } from './github.js';
import { checkOutput, conclusionOf, prAnnotations, upsertCheckRun } from './check-run.js';

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
  const check = await publishCheckRun({ github, core, owner, repo, headSha: env.HEAD_SHA, pr, body, meta });
  return { ...result, pr: pr.number, check };
}

// The check run never costs the comment: without `checks: write` (an adopter's caller
// workflow from before it) GitHub answers 403 and the job says what to add.
async function publishCheckRun({ github, core, owner, repo, headSha, pr, body, meta }) {
  try {
    const annotations = await prAnnotations(github, { owner, repo, pullNumber: pr.number, meta });
    const output = checkOutput(body, annotations);
    const r = await upsertCheckRun(github, { owner, repo, headSha, meta, output });
    core.info(`${r.action} check run ${r.id} (${conclusionOf(meta)}, ${annotations.length} annotation(s))`);
    return r;
  } catch (err) {
    if (err?.status !== 403 && err?.status !== 404) throw err;
    core.warning(
      `no check run (GitHub answered ${err.status}): give the commenting job "checks: write" to get one; the comment is posted`,
    );
    return { action: 'none' };
  }
}
