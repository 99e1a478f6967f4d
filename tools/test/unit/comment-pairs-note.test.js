// The comment's footnote explains the pair notation of a sequential duet's cells. It once
// did so with a fixed example, "4 of ≤ 8 pairs", printed right under cells that ran
// "3 of ≤ 6": a reviewer read the example as a claim about this PR. The notation is
// explained in letters; the only numbers are the cells' own.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderMarkdown } from '../../src/report/markdown.js';
import { goldenVerdict } from '../helpers/golden-verdict.js';

test('the pair-notation footnote carries no numbers of its own: every "x of ≤ y pairs" in the comment is a cell\'s', async () => {
  const doc = structuredClone(await goldenVerdict());
  for (const c of doc.cells) c.sequential = { pairs: 3, maxPairs: 6 };
  const md = renderMarkdown(doc);
  const note = md.split('\n').find((l) => l.startsWith('⁽†⁾'));
  assert.ok(note, md);
  assert.match(note, /"n of ≤ m pairs": the cell ran n pairs, adding pairs up to m only while undecided/);
  const claims = [...md.matchAll(/(\d+) of ≤ (\d+) pairs/g)].map((m) => `${m[1]}/${m[2]}`);
  assert.ok(claims.length > 0, 'the cells show their pairs');
  assert.deepEqual([...new Set(claims)], ['3/6'], md);
});
