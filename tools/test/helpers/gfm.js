// Markdown as github.com renders it: cmark-gfm with GitHub's extensions
// (render-gfm.py, in the venv make setup makes).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = new URL('../../../', import.meta.url).pathname;
export const GFM_PYTHON = join(ROOT, '.tools', 'venv', 'bin', 'python');

export function renderGfm(markdown) {
  const r = spawnSync(GFM_PYTHON, [join(ROOT, 'tools', 'test', 'helpers', 'render-gfm.py')], {
    input: markdown,
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}
