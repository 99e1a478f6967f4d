import { runSync } from '../exec/run.js';
import { ROOT } from '../exec/tools.js';

export function gitSha(ref = 'HEAD') {
  const r = runSync(['git', 'rev-parse', ref], { cwd: ROOT, timeoutMs: 10_000 });
  return r.code === 0 ? r.stdout.trim() : null;
}
