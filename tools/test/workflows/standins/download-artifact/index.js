// actions/download-artifact stand-in.
// - Another run's artifact (run-id + github-token): listed and downloaded as a zip through
//   the REST API (the stand-in of it), unpacked into `path`.
// - This run's artifacts (no run-id): read from where upload-artifact's stand-in keeps
//   them, $STANDIN_ARTIFACTS/<run id>/<name>/. As v8.0.1 does: `name` extracts into `path`
//   and fails when missing; `pattern` (here only * and ?) filters, and no match is not an
//   error; several artifacts go to path/<name>/ unless merge-multiple, one goes to `path`.
import * as core from '@actions/core';
import * as github from '@actions/github';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const name = core.getInput('name');
const runId = core.getInput('run-id');
const pattern = core.getInput('pattern');
const merge = core.getInput('merge-multiple') === 'true';
const path = resolve(process.env.GITHUB_WORKSPACE, core.getInput('path') || '.');

async function fromOtherRun() {
  const octokit = github.getOctokit(core.getInput('github-token'), { baseUrl: process.env.GITHUB_API_URL });
  const { owner, repo } = github.context.repo;
  const { data } = await octokit.rest.actions.listWorkflowRunArtifacts({ owner, repo, run_id: Number(runId), name });
  const artifact = data.artifacts.find((a) => a.name === name);
  if (!artifact) throw new Error(`Artifact '${name}' not found`);
  const zip = await octokit.rest.actions.downloadArtifact({
    owner,
    repo,
    artifact_id: artifact.id,
    archive_format: 'zip',
  });
  const scratch = mkdtempSync(join(tmpdir(), 'standin-art-'));
  const file = join(scratch, 'a.zip');
  writeFileSync(file, Buffer.from(zip.data));
  mkdirSync(path, { recursive: true });
  const r = spawnSync('unzip', ['-o', '-q', file, '-d', path], { encoding: 'utf8' });
  rmSync(scratch, { recursive: true, force: true });
  if (r.status !== 0) throw new Error(`unzip: ${r.stderr}`);
  core.info(`download-artifact stand-in: ${name} of run ${runId} -> ${path}`);
}

function fromThisRun() {
  const root = join(process.env.STANDIN_ARTIFACTS ?? '/nonexistent', process.env.GITHUB_RUN_ID ?? '0');
  const all = existsSync(root) ? readdirSync(root) : [];
  const glob = new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  );
  const picked = name ? all.filter((a) => a === name) : pattern ? all.filter((a) => glob.test(a)) : all;
  if (name && !picked.length) throw new Error(`Artifact '${name}' not found`);
  mkdirSync(path, { recursive: true });
  for (const a of picked) {
    const into = name || merge || picked.length === 1 ? path : join(path, a);
    cpSync(join(root, a), into, { recursive: true });
  }
  core.info(`download-artifact stand-in: ${picked.length ? picked.join(', ') : 'no artifacts'} -> ${path}`);
}

try {
  if (runId) await fromOtherRun();
  else fromThisRun();
} catch (err) {
  core.setFailed(err.message);
}
