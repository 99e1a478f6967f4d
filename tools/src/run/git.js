import { spawnSync } from 'node:child_process';
import { ROOT } from '../deps.js';

export function gitSha(ref = 'HEAD') {
  const r = spawnSync('git', ['rev-parse', ref], { cwd: ROOT, encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}
