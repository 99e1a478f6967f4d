// actions/github-script stand-in: the script as the body of an async function with
// github (an Octokit on GITHUB_API_URL), context and core, as the real action gives it.
import * as core from '@actions/core';
import * as github from '@actions/github';

const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor;
const token = core.getInput('github-token') || process.env.GITHUB_TOKEN;
const octokit = github.getOctokit(token, { baseUrl: process.env.GITHUB_API_URL });
try {
  const result = await new AsyncFunction(
    'github',
    'context',
    'core',
    'require',
    core.getInput('script', { required: true }),
  )(octokit, github.context, core, () => {
    throw new Error('require is not available in the stand-in');
  });
  core.setOutput('result', JSON.stringify(result ?? null));
} catch (err) {
  for (const d of err.details ?? []) core.error(String(d));
  core.setFailed(err.message);
}
