// actions/checkout stand-in. Another repository is copied from
// $STANDIN_REPOS/<owner>/<repo> (a prepared tree; where it is a git repository, at `ref`).
// The workflow's own repository: act has already copied it, .git included, into the
// workspace (its local checkout); a `ref` or a `path` of it is cloned from there at that
// commit, as the real action fetches it into `path`.
import * as core from '@actions/core';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

const repository = core.getInput('repository');
const ref = core.getInput('ref');
const workspace = process.env.GITHUB_WORKSPACE;
const path = resolve(workspace, core.getInput('path') || '.');
const git = (...a) => spawnSync('git', a, { encoding: 'utf8' });

if (!repository || repository === process.env.GITHUB_REPOSITORY) {
  if (path === workspace && !ref) core.info(`checkout stand-in: ${workspace} is the repository (act's local checkout)`);
  else if (path === workspace) core.setFailed('checkout stand-in: a ref of the workspace itself is not stood in for');
  else {
    rmSync(path, { recursive: true, force: true });
    const clone = git('clone', '-q', '--no-checkout', workspace, path);
    const co = clone.status === 0 ? git('-C', path, 'checkout', '-q', '--detach', ref || 'HEAD') : clone;
    if (co.status !== 0) core.setFailed(`checkout stand-in: ${ref || 'HEAD'} of the workspace: ${co.stderr.trim()}`);
    else core.info(`checkout stand-in: ${process.env.GITHUB_REPOSITORY}@${ref || 'HEAD'} -> ${path}`);
  }
} else {
  if (!/^[\w.-]+\/[\w.-]+$/.test(repository)) core.setFailed(`repository "${repository}" is not owner/name`);
  const src = join(process.env.STANDIN_REPOS ?? '', repository);
  if (!existsSync(src)) core.setFailed(`checkout stand-in: no prepared tree for ${repository} at ${src}`);
  else {
    rmSync(path, { recursive: true, force: true });
    cpSync(src, path, { recursive: true });
    // A prepared tree that is a git repository: the ref checked out of it, origin named as
    // the real action leaves it (tailgate-source.sh reads both).
    const isRepo = existsSync(join(path, '.git'));
    const co = isRepo && ref ? git('-C', path, 'checkout', '-q', '--detach', ref) : { status: 0 };
    if (isRepo) {
      git('-C', path, 'remote', 'remove', 'origin');
      git('-C', path, 'remote', 'add', 'origin', `https://github.com/${repository}`);
    }
    if (co.status !== 0) core.setFailed(`checkout stand-in: ${ref} of ${repository}: ${co.stderr.trim()}`);
    else core.info(`checkout stand-in: ${repository}@${ref || 'default'} -> ${path}`);
  }
}
