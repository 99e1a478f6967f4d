// Entry point for bench-comment.yml (actions/github-script imports this file; the
// workflow holds no logic). Reads the downloaded artifact, validates it, finds the
// PR from the triggering run's head SHA, upserts the sticky comment and the check run.
import { existsSync, readdirSync } from 'node:fs';
import { GATE_NAME, readCommentArtifact } from './artifact.js';
import { InputError } from '../errors.js';
import { code, markerFor } from '../report/markdown.js';
import { findPullRequest, upsertComment } from './github.js';
import { checkOutput, conclusionOf, prAnnotations, sharedNote, upsertCheckRun } from './check-run.js';

export async function publishFromWorkflowRun({ github, context, core, env = process.env }) {
  const { owner, repo } = context.repo;
  const repoUrl = `${env.GITHUB_SERVER_URL ?? 'https://github.com'}/${owner}/${repo}`;
  const gate = gateOf(env.GATE);
  const { body, meta } = verdictOfRecord(artifactOf(env.ARTIFACT_DIR, { repoUrl, gate }));
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
  const result = await upsertComment(github, { owner, repo, issueNumber: pr.number, body, gate: meta.gate });
  core.info(`${result.action} comment ${result.id} on #${pr.number} (verdict ${meta.overall})`);
  const source = sourceOf(context);
  const check = await publishCheckRun({ github, core, owner, repo, headSha: env.HEAD_SHA, pr, body, meta, source });
  // Another workflow publishes this gate too: its comment says so first, as the check does.
  if (check.shared) {
    const marker = markerFor(meta.gate);
    const note = `${marker}\n${sharedNote(meta.gate, check.shared)}\n\n${body.slice(marker.length).replace(/^\n/, '')}`;
    await upsertComment(github, { owner, repo, issueNumber: pr.number, body: note, gate: meta.gate });
    core.warning(`gate ${meta.gate ?? 'pr'} is published by more than one workflow: ${check.shared.join(', ')}`);
  }
  return { ...result, pr: pr.number, check };
}

// The gate workflow whose run this publishes (the workflow_run event's path, GitHub's own
// data): its check run carries it, so another workflow's check of the same name is seen.
function sourceOf(context) {
  const path = context.payload?.workflow_run?.path;
  return typeof path === 'string' && path ? path.slice(0, 200) : null;
}

// The gate whose comment this job publishes (comment.yml's matrix over its `gates`).
function gateOf(name) {
  if (name === undefined || name === '') return null;
  if (!GATE_NAME.test(name)) throw new InputError(`GATE: ${JSON.stringify(name.slice(0, 60))} is not a gate's name`);
  return name;
}

// A gate that left no comment artifact (its job failed or was skipped before the upload)
// still gets its check run: failed, saying so — a missing verdict is never a missing check.
function artifactOf(dir, { repoUrl, gate }) {
  if (gate && (!dir || !existsSync(dir) || readdirSync(dir).length === 0))
    return {
      body: `${markerFor(gate)}\n### tailgate 💥 no verdict: the gate left no comment\n\nThe gate ${code(gate)} of this run left no comment artifact: its job failed or was skipped before it uploaded one. Nothing was judged — see the run's log, fix what failed and re-run it.\n`,
      meta: { kind: 'tailgate.comment', schemaVersion: 1, overall: 'infra-error', exitCode: 4, gate },
    };
  const read = readCommentArtifact(dir, { repoUrl });
  if (gate && (read.meta.gate ?? 'pr') !== gate)
    throw new InputError(
      `comment artifact rejected: it is gate ${JSON.stringify(read.meta.gate ?? 'pr')}'s, and this job publishes gate ${JSON.stringify(gate)}'s`,
    );
  return read;
}

// A first look that asked for a confirmation round is all that arrived: the round never
// reported (its jobs failed or were cancelled, or its gate refused its input). That is no
// verdict: inconclusive, said first, never published as a success.
function verdictOfRecord({ body, meta }) {
  if (!meta.pending) return { body, meta };
  const marker = markerFor(meta.gate);
  const note =
    "⚠️ **No verdict of record: the confirmation round this first look asked for never reported** (its jobs failed or were cancelled, or its gate refused its input). Inconclusive until it runs: re-run the workflow's failed jobs.";
  return {
    body: `${marker}\n${note}\n${body.slice(marker.length).replace(/^\n/, '')}`,
    meta: {
      ...meta,
      overall: meta.overall === 'regression' ? 'regression' : 'inconclusive',
      exitCode: meta.exitCode || 3,
    },
  };
}

// The check run never costs the comment: without `checks: write` (an adopter's caller
// workflow from before it) GitHub answers 403 and the job says what to add.
async function publishCheckRun({ github, core, owner, repo, headSha, pr, body, meta, source }) {
  try {
    const annotations = await prAnnotations(github, { owner, repo, pullNumber: pr.number, meta });
    const output = checkOutput(body, annotations);
    const r = await upsertCheckRun(github, { owner, repo, headSha, meta, output, source });
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
