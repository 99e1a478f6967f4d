// actions/upload-artifact stand-in: the files are kept under
// $STANDIN_ARTIFACTS/<run id>/<name>/ for the test to read, as the real action keeps them
// with the run. A path with no files follows if-no-files-found (warn by default).
import * as core from '@actions/core';
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

const name = core.getInput('name') || 'artifact';
const paths = core
  .getInput('path', { required: true })
  .split('\n')
  .map((p) => p.trim())
  .filter(Boolean);
const into = join(process.env.STANDIN_ARTIFACTS ?? '/nonexistent', process.env.GITHUB_RUN_ID ?? '0', name);
const found = paths.map((p) => resolve(process.env.GITHUB_WORKSPACE, p)).filter(existsSync);
if (!found.length) {
  const how = core.getInput('if-no-files-found') || 'warn';
  const msg = `No files were found with the provided path: ${paths.join(', ')}. No artifacts will be uploaded.`;
  if (how === 'error') core.setFailed(msg);
  else if (how === 'warn') core.warning(msg);
  else core.info(msg);
} else {
  if (core.getInput('overwrite') === 'true') rmSync(into, { recursive: true, force: true });
  mkdirSync(into, { recursive: true });
  for (const p of found) cpSync(p, join(into, p.split('/').at(-1)), { recursive: true });
  core.setOutput('artifact-id', name);
  core.info(`upload-artifact stand-in: ${name} <- ${found.join(', ')}`);
}
