// The comment's line for cells a duet would not have judged fairly (targets/kube/
// one-at-a-time.js): loaded one side at a time, and why, in one line per reason.
import { code, md } from './gfm.js';

export function oneAtATimeLine(doc) {
  const list = doc.oneAtATime ?? [];
  if (!list.length) return '';
  const byWhy = new Map();
  for (const { cell, why } of list) byWhy.set(why, [...(byWhy.get(why) ?? []), cell]);
  return [...byWhy]
    .slice(0, 6)
    .map(
      ([why, cells]) =>
        `ℹ️ **One side at a time**: ${cells.slice(0, 8).map(code).join(', ')}${cells.length > 8 ? ` and ${cells.length - 8} more` : ''} — ${md(why)}. Both releases stayed in one cluster, loaded in turn as interleaved pairs; that is this verdict.`,
    )
    .join('\n\n');
}
