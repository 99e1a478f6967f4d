// actions/download-artifact stand-in, for another run's artifact (run-id + github-token):
// lists the run's artifacts and downloads the named one's zip through the REST API.
import * as core from '@actions/core';
import * as github from '@actions/github';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const name = core.getInput('name');
const runId = core.getInput('run-id');
const path = resolve(process.env.GITHUB_WORKSPACE, core.getInput('path'));
const octokit = github.getOctokit(core.getInput('github-token'), { baseUrl: process.env.GITHUB_API_URL });
const { owner, repo } = github.context.repo;
try {
  const { data } = await octokit.rest.actions.listWorkflowRunArtifacts({ owner, repo, run_id: Number(runId), name });
  const artifact = data.artifacts.find((a) => a.name === name);
  if (!artifact) throw new Error(`Artifact not found for name: ${name}`);
  const zip = await octokit.rest.actions.downloadArtifact({
    owner,
    repo,
    artifact_id: artifact.id,
    archive_format: 'zip',
  });
  const file = join(mkdtempSync(join(tmpdir(), 'standin-art-')), 'a.zip');
  writeFileSync(file, Buffer.from(zip.data));
  mkdirSync(path, { recursive: true });
  const r = spawnSync('unzip', ['-o', '-q', file, '-d', path], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`unzip: ${r.stderr}`);
  core.info(`download-artifact stand-in: ${name} of run ${runId} -> ${path}`);
} catch (err) {
  core.setFailed(err.message);
}
