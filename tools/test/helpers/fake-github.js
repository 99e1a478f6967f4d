// The publisher (publish/index.js) against an in-memory GitHub: what the commenting
// workflow would post for a comment artifact — the comment and the check run.
import { publishFromWorkflowRun } from '../../src/publish/index.js';

function fakeGithub() {
  const calls = [];
  const rest = {
    repos: {
      listPullRequestsAssociatedWithCommit: async () => ({ data: [{ number: 7, state: 'open', head: { sha: 'h' } }] }),
    },
    issues: {
      listComments: async () => ({ data: [] }),
      createComment: async (a) => (calls.push(['comment', a]), { data: { id: 1 } }),
      updateComment: async (a) => (calls.push(['update', a]), { data: {} }),
    },
    checks: {
      listForRef: async () => ({ data: { check_runs: [] } }),
      create: async (a) => (calls.push(['check', a]), { data: { id: 2 } }),
      update: async (a) => (calls.push(['check-update', a]), { data: {} }),
    },
    pulls: { listFiles: async () => ({ data: [] }), list: async () => ({ data: [] }) },
  };
  return { calls, github: { rest, paginate: async (fn, args) => (await fn(args)).data } };
}

/** dir: a comment artifact; gate: the gate this job publishes (comment.yml's GATE). */
export async function publish(dir, gate, { repoUrl = 'https://github.com/o/r' } = {}) {
  const { calls, github } = fakeGithub();
  const core = { info() {}, notice() {}, warning() {} };
  const [owner, repo] = new URL(repoUrl).pathname.split('/').filter(Boolean);
  const env = {
    ARTIFACT_DIR: dir,
    HEAD_SHA: 'h',
    GITHUB_SERVER_URL: new URL(repoUrl).origin,
    ...(gate ? { GATE: gate } : {}),
  };
  await publishFromWorkflowRun({ github, context: { repo: { owner, repo } }, core, env });
  return { comment: calls.find((c) => c[0] === 'comment')?.[1], check: calls.find((c) => c[0] === 'check')?.[1] };
}
