// The gate's rules come from the PR's base commit, as its baselines do: a PR that raises
// its own p99 threshold to 1000% is still judged by the rules it is asked to change. What
// it changes is shown (the comment's first lines) and applies once it merges.
import { relative } from 'node:path';
import { parse } from 'yaml';
import { gateOf } from '../config/defaults.js';
import { schemaProblems } from '../schema.js';
import { InputError } from '../errors.js';
import { runSync } from '../exec/run.js';

const MAX_CONFIG_BYTES = 1 << 20;

/**
 * The gate at `ref`: { gate, changes: ["p99 threshold 10% → 50%", …], note } — `changes`
 * against the working tree's gate `headGate`; `note` when the base has no bench.yaml (the
 * defaults apply) or no such matrix (its top-level gate applies).
 */
export function baseGate({ ref, configFile, matrix, headGate, flag = '--gate-ref' }) {
  if (!ref)
    throw new InputError(`${flag} is empty: name the base commit (an empty ref would apply the PR's own rules)`);
  if (!/^[\w./-]{1,200}$/.test(ref) || ref.startsWith('-'))
    throw new InputError(`${flag}: "${ref.slice(0, 60)}" is not a commit or ref name`);
  const rel = relative(process.cwd(), configFile).split('\\').join('/');
  const r = runSync(['git', 'show', `${ref}:./${rel}`], { maxBuffer: MAX_CONFIG_BYTES, timeoutMs: 60_000 });
  let raw = null;
  let note = null;
  if (r.code !== 0) {
    if (!/does not exist|exists on disk, but not in/.test(r.stderr))
      throw new InputError(
        `${flag} ${ref}: cannot read ${rel} (${r.stderr.trim().split('\n')[0]}); is the base commit fetched? (actions/checkout fetch-depth: 0)`,
      );
    note = `the base commit has no ${rel}: tailgate's default gate applies to this PR`;
  } else {
    try {
      raw = parse(r.stdout, { maxAliasCount: 100 });
    } catch (err) {
      throw new InputError(`${ref}:${rel}: not YAML (${err.message.split('\n')[0]})`);
    }
    const problems = schemaProblems('bench', raw);
    if (problems.length)
      throw new InputError(`${ref}:${rel}: the base's bench.yaml does not validate, so its gate cannot apply`, {
        details: problems.slice(0, 20).map((p) => `${p.path.join('.') || '(top)'}: ${p.message}`),
      });
    if (matrix && !raw.matrices?.[matrix]) note = `the base has no matrix "${matrix}": its top-level gate applies`;
  }
  const gate = gateOf(raw ?? {}, matrix);
  // No base bench.yaml: the defaults apply, said once by the note — listing every rule
  // the PR's new bench.yaml sets as a "change" would be noise.
  return { gate, changes: headGate && raw ? gateChanges(gate, headGate) : [], note };
}

/** What a head's gate changes against the base's, one phrase per rule. */
export function gateChanges(base, head) {
  const out = [];
  const walk = (a, b, path) => {
    for (const k of [...new Set([...Object.keys(a ?? {}), ...Object.keys(b ?? {})])].sort()) {
      const [x, y] = [a?.[k], b?.[k]];
      if (x && typeof x === 'object' && y && typeof y === 'object') walk(x, y, [...path, k]);
      else if (JSON.stringify(x) !== JSON.stringify(y)) out.push(`${[...path, k].join(' ')} ${show(x)} → ${show(y)}`);
    }
  };
  walk(base, head, []);
  return out;
}

function show(v) {
  if (v === undefined) return '(unset)';
  return typeof v === 'string' ? v : JSON.stringify(v);
}
