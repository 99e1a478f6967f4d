// The base's design of record for a cell's pairs. How many pairs a cell runs — its
// `repetitions`, and for a duet its `maxRepetitions`, whose looks spend α (sequential-gate.js)
// — is a rule like the thresholds: it comes from the PR's base commit, never from the
// results' metadata, which the runner writes from the head's bench.yaml. Before, a PR that
// shrank its own budget was judged on the pairs it chose, with the spending of the design
// it chose, and nothing said so.
//
// So, with the base known (--gate-ref, --base-ref, `tailgate gate`):
//   - a cell judged on fewer pairs than the base's `repetitions` is not judged: inconclusive,
//     naming both numbers;
//   - a duet of a base matrix with `maxRepetitions` is tested with the base's design
//     (its looks, its shares of α, the gate's re-look of a cell stopped short);
//   - pairs beyond what that design could run (beyond maxRepetitions; beyond `repetitions`
//     where the base has no looks but the runs had) are not judged: the first ones are — a
//     test of pairs the design always ran is valid whatever the head's looks did after them;
//   - what the head changes in the design is listed with the PR's other rule changes.
// The looks' share (SEQUENTIAL_LOOK_P) and the interim rule are tailgate's code, and the
// gate rules they read are the base's already (base-policy.js).
// Which comparison the matrix makes — a duet, interleaved pairs, baselines — is the base's
// too (designOf): a head that changes it is named first on the comment (base-policy.js
// designChanges), its verdict made under the design its runs had.

/**
 * A base matrix (as loaded: defaults applied) -> { minPairs, maxPairs, sequential } — the
 * pairs every cell runs, the most a cell may run, and whether the runs between are looks —
 * or null without one. Sequential as planMatrix makes it: a duet not loaded one side at a time.
 */
export function pairsOfRecord(matrix) {
  if (!matrix || !Number.isInteger(matrix.repetitions)) return null;
  const minPairs = matrix.repetitions;
  const looks = matrix.compare === 'concurrent' && !matrix.alternate && (matrix.maxRepetitions ?? 0) > minPairs;
  return { minPairs, maxPairs: looks ? matrix.maxRepetitions : minPairs, sequential: looks };
}

// The comparisons a gated matrix can make, by what it measures: one side against the
// committed baselines, base and head interleaved on one runner, or both at once (a duet),
// which alternate loads one side at a time.
const DESIGNS = {
  baseline: 'baselines',
  paired: 'interleaved pairs',
  concurrent: 'a duet',
  alternate: 'a duet loaded one side at a time',
};

/** A matrix's design of record, in words: 'a duet', 'interleaved pairs', 'baselines', …. */
export function designOf(matrix) {
  const compare = matrix.compare ?? 'baseline';
  return DESIGNS[compare === 'concurrent' && matrix.alternate ? 'alternate' : compare] ?? compare;
}

/** The design and the fields that make it: 'a duet (compare: concurrent, alternate: true)'. */
export function designText(matrix) {
  const compare = matrix.compare ?? 'baseline';
  const alternate = compare === 'concurrent' && matrix.alternate ? ', alternate: true' : '';
  return `${designOf(matrix)} (compare: ${compare}${alternate})`;
}

/** What the head's matrix changes in the base's pair design, one phrase per field. */
export function pairsChanges(baseMatrix, headMatrix, name) {
  if (!baseMatrix || !headMatrix) return [];
  const out = [];
  for (const k of ['repetitions', 'maxRepetitions']) {
    const [b, h] = [baseMatrix[k], headMatrix[k]];
    if (b !== h) out.push(`matrix ${name} ${k} ${b ?? '(unset)'} → ${h ?? '(unset)'}`);
  }
  return out;
}

/**
 * A valid prepared cell of a paired comparison, held to the record (see above) -> { why }
 * when it is short of the base's pairs (not judged), else { meta } — the sequential design
 * to test it with (null: fixed) — having cut pairs the design could not have run.
 */
export function holdToRecord(p, record) {
  const n = p.pairs?.length ?? Math.min(p.base.length, p.head.length);
  if (n < record.minPairs)
    return {
      why: `judged on ${n} pair${n === 1 ? '' : 's'}, fewer than the ${record.minPairs} the base's design asks (its matrix's repetitions): not judged — the base's rules apply to a PR, its pair budget too`,
    };
  // A duet's pairs, or a PR duet's loaded one side at a time because the sides would not
  // share the node fairly (targets/kube/one-at-a-time.js): the same sequential budget.
  const paired = [...p.base, ...p.head].every((r) => r.meta?.ab || r.meta?.alternate);
  const sequential = record.sequential && paired;
  const ranLooks = [...p.base, ...p.head].some((r) => r.meta?.sequential);
  const most = sequential ? record.maxPairs : ranLooks ? record.minPairs : Infinity;
  if (p.pairs && n > most) cutTo(p, most);
  return { meta: sequential ? { minPairs: record.minPairs, maxPairs: record.maxPairs } : null };
}

function cutTo(p, most) {
  const cut = p.pairs.slice(most);
  p.pairs = p.pairs.slice(0, most);
  p.base = p.pairs.map((x) => x.base);
  p.head = p.pairs.map((x) => x.head);
  if (p.out.design) p.out.design = { ...p.out.design, pairs: most, order: p.pairs.map((x) => x.order) };
  p.out.warnings.push(
    `pair${cut.length === 1 ? '' : 's'} ${cut.map((x) => x.pair).join(', ')} not judged: the base's design runs at most ${most} pairs, and the first ${most} are tested`,
  );
}
