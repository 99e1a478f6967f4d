// Which base run belongs with which head run. Paired mode runs base and head of a
// cell interleaved (A B, B A, …) on one machine; what the two runs of a pair share
// (the machine's state in those minutes) cancels in their ratio, which is why a
// paired test sees smaller changes than one on independent runs.
//
// Pairs are matched by the pair index the paired runner records (`meta.pair`), or,
// for results written without it, by run order (`meta.startedAt`) when the runs are
// visibly interleaved. Equal counts without either are analysed as two independent
// samples.
//
// Every pair whole: a pair is one run of each side. A pair that lost a side, a pair
// number that repeats on a side, or numbers on some runs only are refused (`broken`):
// the gate makes the cell inconclusive, naming the pair and side (gate.js). Read as
// independent samples instead, such a cell passed — its one-sided pair also counted
// towards "ran to its budget" (sequential-gate.js).

/** -> { pairs: [{base, head, pair, order}], by } or { pairs: null, why, broken? } */
export function matchPairs(base, head) {
  if (!base.length && !head.length) return { pairs: null, why: 'no runs on either side' };
  const broken = brokenPairs(base, head);
  if (broken) return { pairs: null, why: broken, broken: true };
  const byIndex = matchByIndex(base, head);
  if (byIndex) return { pairs: byIndex, by: 'pair index' };
  const byOrder = matchByOrder(base, head);
  if (byOrder) return { pairs: byOrder, by: 'run order' };
  return { pairs: null, why: 'runs carry no pair index and were not run interleaved' };
}

const index = (r) => r.meta?.pair;

// Why these runs cannot be whole pairs, or null.
function brokenPairs(base, head) {
  const sides = { base, head };
  const numbered = [...base, ...head].filter((r) => Number.isInteger(index(r))).length;
  if (!numbered) {
    if (base.length === head.length) return null;
    return `${base.length} base vs ${head.length} head runs and no pair numbers: a pair lost a side, and which one is not recorded`;
  }
  for (const [side, runs] of Object.entries(sides)) {
    const i = runs.findIndex((r) => !Number.isInteger(index(r)));
    if (i >= 0)
      return `the ${side}'s run ${i + 1} of ${runs.length} carries no pair number while others do: its pair cannot be known`;
  }
  const problems = [];
  const seen = {};
  for (const [side, runs] of Object.entries(sides)) {
    seen[side] = new Map();
    for (const r of runs) seen[side].set(index(r), (seen[side].get(index(r)) ?? 0) + 1);
    for (const [n, k] of [...seen[side]].sort((a, b) => a[0] - b[0]))
      if (k > 1) problems.push(`pair ${n} appears ${k} times on the ${side} side`);
  }
  const all = [...new Set([...seen.base.keys(), ...seen.head.keys()])].sort((a, b) => a - b);
  for (const n of all)
    for (const side of ['base', 'head'])
      if (!seen[side].has(n)) problems.push(`pair ${n}: its ${side} side never arrived`);
  return problems.length ? problems.join('; ') : null;
}

// Pair numbers are whole and unique here (brokenPairs): each head run has one base mate.
function matchByIndex(base, head) {
  if (!base.every((r) => Number.isInteger(index(r)))) return null;
  const b = new Map(base.map((r) => [index(r), r]));
  const pairs = head.map((h) => {
    const mate = b.get(index(h));
    return { base: mate, head: h, pair: index(h), order: orderOf(mate, h) };
  });
  return pairs.sort((x, y) => x.pair - y.pair);
}

// The i-th base and i-th head run form a pair only if both ran before any run of
// pair i+1: that is what interleaving means, and without it the pair shares nothing.
function matchByOrder(base, head) {
  const t = (r) => Date.parse(r.meta?.startedAt ?? '');
  if (![...base, ...head].every((r) => Number.isFinite(t(r)))) return null;
  const b = [...base].sort((x, y) => t(x) - t(y));
  const h = [...head].sort((x, y) => t(x) - t(y));
  const pairs = b.map((r, i) => ({ base: r, head: h[i], pair: i + 1, order: orderOf(r, h[i]) }));
  for (let i = 1; i < pairs.length; i++) {
    const prevEnd = Math.max(t(pairs[i - 1].base), t(pairs[i - 1].head));
    const start = Math.min(t(pairs[i].base), t(pairs[i].head));
    if (start < prevEnd) return null;
  }
  return pairs;
}

function orderOf(base, head) {
  const tb = Date.parse(base.meta?.startedAt ?? '');
  const th = Date.parse(head.meta?.startedAt ?? '');
  if (!Number.isFinite(tb) || !Number.isFinite(th)) return null;
  return tb <= th ? 'AB' : 'BA';
}
