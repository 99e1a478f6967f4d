// The PR's base commit's bench.yaml, read from git (never the working tree): the rules a
// PR is judged by and the cells it must answer for come from there (compare/base-policy.js,
// plan/of-record.js). One reader, so the gate and the plan see the same file the same way.
import { relative } from 'node:path';
import { parse } from 'yaml';
import { schemaProblems } from '../schema.js';
import { InputError } from '../errors.js';
import { runSync } from '../exec/run.js';

const MAX_CONFIG_BYTES = 1 << 20;

/**
 * { raw, rel, note }: the base's bench.yaml as written (schema-checked), or raw null with
 * a note when the base commit has none. Refuses (exit 2) a ref that is not one, a base
 * that cannot be read, or one that does not validate.
 */
export function benchAtRef({ ref, configFile, flag = '--base-ref' }) {
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
    return { raw: null, rel, note: `the base commit has no ${rel}` };
  }
  let raw;
  try {
    raw = parse(r.stdout, { maxAliasCount: 100 });
  } catch (err) {
    throw new InputError(`${ref}:${rel}: not YAML (${err.message.split('\n')[0]})`);
  }
  const problems = schemaProblems('bench', raw);
  if (problems.length)
    throw new InputError(`${ref}:${rel}: the base's bench.yaml does not validate, so its rules cannot apply`, {
      details: problems.slice(0, 20).map((p) => `${p.path.join('.') || '(top)'}: ${p.message}`),
    });
  return { raw, rel, note: null };
}
