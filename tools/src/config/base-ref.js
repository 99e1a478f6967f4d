// The PR's base commit's bench.yaml, read from git (never the working tree): the rules a
// PR is judged by and the cells it must answer for come from there (compare/base-policy.js,
// plan/of-record.js). One reader, and the one path every bench.yaml takes (config/load.js:
// schema, defaults, checks, numbers), so the gate and the plan see the same file the same
// way as the head's own.
import { relative } from 'node:path';
import { InputError } from '../errors.js';
import { runSync } from '../exec/run.js';
import { parseBench } from './load.js';

const MAX_CONFIG_BYTES = 1 << 20;

/**
 * { cfg, rel, note }: the base's bench.yaml loaded as the head's is (for `matrix`), or cfg
 * null with a note when the base commit has none. Refuses (exit 2) a ref that is not one, a
 * base that cannot be read, or one that does not validate.
 */
export function benchAtRef({ ref, configFile, matrix, flag = '--base-ref' }) {
  if (!ref)
    throw new InputError(`${flag} is empty: name the base commit (an empty ref would apply the PR's own rules)`);
  if (!/^[\w./-]{1,200}$/.test(ref) || ref.startsWith('-'))
    throw new InputError(`${flag}: "${ref.slice(0, 60)}" is not a commit or ref name`);
  const rel = relative(process.cwd(), configFile).split('\\').join('/');
  const r = runSync(['git', 'show', `${ref}:./${rel}`], { maxBuffer: MAX_CONFIG_BYTES, timeoutMs: 60_000 });
  if (r.code !== 0) {
    if (!/does not exist|exists on disk, but not in/.test(r.stderr))
      throw new InputError(
        `${flag} ${ref}: cannot read ${rel} (${r.stderr.trim().split('\n')[0]}); is the base commit fetched? (actions/checkout fetch-depth: 0)`,
      );
    return { cfg: null, rel, note: `the base commit has no ${rel}` };
  }
  const file = `${ref}:${rel}`;
  try {
    // Files it names (a values file) are the base commit's, not on this disk.
    return { cfg: parseBench(r.stdout, file, { matrix, onDisk: false }), rel, note: null };
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    throw new InputError(`${file}: the base's bench.yaml does not validate, so its rules cannot apply`, {
      details: err.details.length ? err.details : [err.message],
    });
  }
}
