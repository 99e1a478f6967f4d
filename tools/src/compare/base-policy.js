// The gate's rules come from the PR's base commit, as its baselines do: a PR that raises
// its own p99 threshold to 1000% is still judged by the rules it is asked to change. What
// it changes is shown (the comment's first lines) and applies once it merges.
import { defaultGate } from '../config/defaults.js';
import { benchAtRef } from '../config/base-ref.js';
import { ruleNumbers } from '../config/normalise.js';
import { designOf, designText, pairsChanges, pairsOfRecord } from './pairs-of-record.js';

/**
 * The gate at `ref`: { gate, changes: ["p99 threshold 10% → 50%", …], design, designChange,
 * note, base, record } —
 * `changes` against the working tree's gate `headGate` (and its matrix `headMatrix`: the
 * pairs it runs); `note` when the base has no bench.yaml (the defaults apply) or no such
 * matrix (its top-level gate applies); `base` the base's bench.yaml, loaded as the head's is
 * (its matrix is the plan the PR answers for); `record` the base matrix's design for the
 * pairs (pairs-of-record.js), null without a base matrix; `designChange` what the head's matrix
 * changes in the base's design (designChanges), `design` the base matrix's own (designOf).
 */
export function baseGate({ ref, configFile, matrix, headGate, headMatrix = null, flag = '--gate-ref' }) {
  const { cfg: base, note: missing } = benchAtRef({ ref, configFile, matrix, flag });
  let note = missing && `${missing}: tailgate's default gate applies to this PR`;
  const own = matrix && base ? base.matrices[matrix] : null;
  if (base && matrix && !own) note = `the base has no matrix "${matrix}": its top-level gate applies`;
  const gate = own?.gate ?? base?.gate ?? defaultGate();
  // No base bench.yaml: the defaults apply, said once by the note — listing every rule
  // the PR's new bench.yaml sets as a "change" would be noise.
  const changes = headGate && base ? [...gateChanges(gate, headGate), ...pairsChanges(own, headMatrix, matrix)] : [];
  return {
    gate,
    changes,
    design: own ? designOf(own) : null,
    designChange: designChanges(own, headMatrix, matrix),
    note,
    base,
    record: pairsOfRecord(own),
  };
}

/**
 * What the head's matrix changes in the base's design of record (pairs-of-record.js
 * designOf): one phrase, or none. Not among `changes`: the runs were made under the head's
 * design and the verdict is theirs, so the comment names this first and says so
 * (report/markdown.js) rather than "this verdict uses the base's". No base matrix: no record.
 */
export function designChanges(baseMatrix, headMatrix, name) {
  if (!baseMatrix || !headMatrix) return [];
  const [b, h] = [designText(baseMatrix), designText(headMatrix)];
  return b === h ? [] : [`matrix ${name}: ${b} → ${h}`];
}

/** What a head's gate changes against the base's, one phrase per rule. */
export function gateChanges(base, head) {
  const out = [];
  const walk = (a, b, path) => {
    for (const k of [...new Set([...Object.keys(a ?? {}), ...Object.keys(b ?? {})])].sort()) {
      const [x, y] = [a?.[k], b?.[k]];
      if (x && typeof x === 'object' && y && typeof y === 'object') {
        if (sameNumbers(x, y)) continue;
        walk(x, y, [...path, k]);
      } else if (JSON.stringify(x) !== JSON.stringify(y)) out.push(`${[...path, k].join(' ')} ${show(x)} → ${show(y)}`);
    }
  };
  walk(base, head, []);
  return out;
}

// A rule written another way ("10%" and "10.0%", "1s" and "1000ms") is the same rule: its
// numbers and the rest of it are equal.
function sameNumbers(x, y) {
  if (typeof x.threshold !== 'string' || typeof y.threshold !== 'string') return false;
  const strip = ({ threshold, floor, ...rest }) => JSON.stringify(rest);
  const n = (r) => JSON.stringify(ruleNumbers(r));
  return strip(x) === strip(y) && n(x) === n(y);
}

function show(v) {
  if (v === undefined) return '(unset)';
  return typeof v === 'string' ? v : JSON.stringify(v);
}
