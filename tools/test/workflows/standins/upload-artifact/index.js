// actions/upload-artifact stand-in: the files are kept under
// $STANDIN_ARTIFACTS/<run id>/<name>/ for the test (and download-artifact's stand-in) to
// read, as the real action keeps them with the run. As v7.0.0 documents: the artifact's
// root is the paths' least common ancestor (one folder: its contents), hidden files are
// left out unless include-hidden-files, a path with no files follows if-no-files-found
// (warn by default). STANDIN_UPLOAD_FAIL makes the uploads it names fail.
import * as core from '@actions/core';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const name = core.getInput('name') || 'artifact';
const hidden = core.getInput('include-hidden-files') === 'true';
const paths = core
  .getInput('path', { required: true })
  .split('\n')
  .map((p) => p.trim())
  .filter(Boolean);
const into = join(process.env.STANDIN_ARTIFACTS ?? '/nonexistent', process.env.GITHUB_RUN_ID ?? '0', name);
const found = paths.map((p) => resolve(process.env.GITHUB_WORKSPACE, p)).filter(existsSync);

function files(p) {
  if (!statSync(p).isDirectory()) return [p];
  return readdirSync(p, { recursive: true })
    .map((f) => join(p, String(f)))
    .filter((f) => statSync(f).isFile());
}
const isHidden = (f, root) =>
  relative(root, f)
    .split(sep)
    .some((s) => s.startsWith('.'));

function commonRoot(ps) {
  if (ps.length === 1 && statSync(ps[0]).isDirectory()) return ps[0];
  let root = dirname(ps[0]);
  while (!ps.every((p) => p === root || p.startsWith(root + sep))) root = dirname(root);
  return root;
}

// A lost upload, as a runner that dies or an artifact service that fails leaves it: the
// step fails and nothing is stored (STANDIN_UPLOAD_FAIL: a glob of artifact names).
const lost = process.env.STANDIN_UPLOAD_FAIL;
if (lost && new RegExp(`^${lost.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`).test(name)) {
  core.setFailed(`Failed to upload ${name}: the artifact service did not answer (stand-in: STANDIN_UPLOAD_FAIL)`);
  process.exit();
}

const root = found.length ? commonRoot(found) : null;
const list = found.flatMap(files).filter((f) => hidden || !isHidden(f, root));
if (!list.length) {
  const how = core.getInput('if-no-files-found') || 'warn';
  const msg = `No files were found with the provided path: ${paths.join(', ')}. No artifacts will be uploaded.`;
  if (how === 'error') core.setFailed(msg);
  else if (how === 'warn') core.warning(msg);
  else core.info(msg);
} else {
  if (core.getInput('overwrite') === 'true') rmSync(into, { recursive: true, force: true });
  else if (existsSync(into)) {
    core.setFailed(`Failed to CreateArtifact: an artifact with this name already exists on the workflow run`);
    process.exit();
  }
  for (const f of list) {
    mkdirSync(dirname(join(into, relative(root, f))), { recursive: true });
    cpSync(f, join(into, relative(root, f)));
  }
  core.setOutput('artifact-id', name);
  core.info(`upload-artifact stand-in: ${name} <- ${list.length} files under ${root}`);
}
