// Which base run belongs with which head run. Paired mode runs base and head of a
// cell interleaved (A B, B A, …) on one machine; what the two runs of a pair share
// (the machine's state in those minutes) cancels in their ratio, which is why a
// paired test sees smaller changes than one on independent runs.
//
// Pairs are matched by the pair index the paired runner records (`meta.pair`), or,
// for results written without it, by run order (`meta.startedAt`) when the runs are
// visibly interleaved. Anything else is analysed as two independent samples.

/** -> { pairs: [{base, head, pair, order}], by } or { pairs: null, why } */
export function matchPairs(base, head) {
  if (!base.length || base.length !== head.length) {
    return { pairs: null, why: `${base.length} base vs ${head.length} head runs` };
  }
  const byIndex = matchByIndex(base, head);
  if (byIndex) return { pairs: byIndex, by: 'pair index' };
  const byOrder = matchByOrder(base, head);
  if (byOrder) return { pairs: byOrder, by: 'run order' };
  return { pairs: null, why: 'runs carry no pair index and were not run interleaved' };
}

function matchByIndex(base, head) {
  const index = (r) => r.meta?.pair;
  if (![...base, ...head].every((r) => Number.isInteger(index(r)))) return null;
  const b = new Map(base.map((r) => [index(r), r]));
  if (b.size !== base.length) return null;
  const pairs = [];
  for (const h of head) {
    const mate = b.get(index(h));
    if (!mate) return null;
    pairs.push({ base: mate, head: h, pair: index(h), order: orderOf(mate, h) });
  }
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
