// A git repository with one commit of `files` (name → text): the PR's base commit that
// tests read rules, baselines and matrices from (git show <base>:bench.yaml).
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from './scratch.js';

export function committedRepo(prefix, files) {
  const dir = scratchDir(prefix);
  const git = (...a) => spawnSync('git', ['-C', dir, ...a], { encoding: 'utf8' });
  git('init', '-q');
  git('config', 'user.email', 't@example.com');
  git('config', 'user.name', 't');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  git('add', '-A');
  git('commit', '-qm', 'base');
  return { dir, base: git('rev-parse', 'HEAD').stdout.trim() };
}
