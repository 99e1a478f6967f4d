// actions/checkout stand-in: a named repository is copied from $STANDIN_REPOS/<owner>/<repo>.
import * as core from '@actions/core';
import { cpSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

const repository = core.getInput('repository');
const workspace = process.env.GITHUB_WORKSPACE;
const path = resolve(workspace, core.getInput('path') || '.');
if (!repository || repository === process.env.GITHUB_REPOSITORY) {
  core.info(`checkout stand-in: ${workspace} is the repository (act host mode)`);
} else {
  if (!/^[\w.-]+\/[\w.-]+$/.test(repository)) core.setFailed(`repository "${repository}" is not owner/name`);
  const src = join(process.env.STANDIN_REPOS ?? '', repository);
  if (!existsSync(src)) core.setFailed(`checkout stand-in: no prepared tree for ${repository} at ${src}`);
  else {
    cpSync(src, path, { recursive: true });
    core.info(`checkout stand-in: ${repository}@${core.getInput('ref') || 'default'} -> ${path}`);
  }
}
