// The gate's rules come from the PR's base commit, as its baselines do: a PR that raises
// its own p99 threshold to 1000% is still judged by the rules it is asked to change. What
// it changes is shown (the comment's first lines) and applies once it merges.
import { gateOf } from '../config/defaults.js';
import { benchAtRef } from '../config/base-ref.js';

/**
 * The gate at `ref`: { gate, changes: ["p99 threshold 10% → 50%", …], note, raw } —
 * `changes` against the working tree's gate `headGate`; `note` when the base has no
 * bench.yaml (the defaults apply) or no such matrix (its top-level gate applies); `raw`
 * the base's bench.yaml as written (its matrix is the plan the PR answers for).
 */
export function baseGate({ ref, configFile, matrix, headGate, flag = '--gate-ref' }) {
  const { raw, note: missing } = benchAtRef({ ref, configFile, flag });
  let note = missing && `${missing}: tailgate's default gate applies to this PR`;
  if (raw && matrix && !raw.matrices?.[matrix]) note = `the base has no matrix "${matrix}": its top-level gate applies`;
  const gate = gateOf(raw ?? {}, matrix);
  // No base bench.yaml: the defaults apply, said once by the note — listing every rule
  // the PR's new bench.yaml sets as a "change" would be noise.
  return { gate, changes: headGate && raw ? gateChanges(gate, headGate) : [], note, raw };
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
