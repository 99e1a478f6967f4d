// Every pair whole (issue 59, item 2): a pair is one run of each side. A pair that lost a
// side, or pair numbers that repeat on a side, make the cell inconclusive and name the
// pair and side — never independent samples with a warning, never a cell "run to budget".
// Held out: head pair 3 missing in a 3…8 sequential duet passed, read as run to budget.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyDefaults } from '../../src/config/defaults.js';
import { gateCells } from '../../src/compare/gate.js';
import { matchPairs } from '../../src/compare/pairs.js';
import { duetPair } from '../helpers/sequential-sim.js';

const GATE = applyDefaults({ controllers: {}, scenarios: {}, matrices: {} }).gate;
const sequential = { minPairs: 3, maxPairs: 8 };

// A clear no-op duet of n pairs, numbered 1…n on both sides.
function pairs(n) {
  const base = [];
  const head = [];
  for (let i = 1; i <= n; i++) {
    const p = duetPair({ pair: i, d: 0.01 * ((i % 3) - 1), sequential, withinSd: 0.03 });
    base.push(p.base);
    head.push(p.head);
  }
  return { base, head };
}
const judge = (c) => gateCells([{ cell: 'traefik/default/steady', ...c }], GATE, { mode: 'paired' }).cells[0];
const renumber = (r, pair) => ({ ...r, meta: { ...r.meta, pair, repetition: pair } });

test('every pair whole: a pair whose head side never arrived makes the cell inconclusive, naming pair 3 head', () => {
  const { base, head } = pairs(8);
  const cell = judge({ base, head: head.filter((r) => r.meta.pair !== 3) });
  assert.equal(cell.verdict, 'inconclusive');
  assert.match(cell.reasons.join(' '), /pair 3: its head side never arrived/);
  // The whole cell passes: the missing side is all that makes it inconclusive.
  assert.equal(judge({ base, head }).verdict, 'pass');
});

test('every pair whole: a pair whose base side never arrived is named too, whatever the other pairs say', () => {
  const { base, head } = pairs(8);
  const cell = judge({ base: base.filter((r) => r.meta.pair !== 8), head });
  assert.equal(cell.verdict, 'inconclusive');
  assert.match(cell.reasons.join(' '), /pair 8: its base side never arrived/);
});

test('every pair whole: pair numbers that repeat on a side are refused, naming the pair and side', () => {
  const { base, head } = pairs(3);
  // Head runs numbered 1, 2, 2: the old matcher paired base 2 twice and dropped base 3.
  const twice = [head[0], head[1], renumber(head[2], 2)];
  const m = matchPairs(base, twice);
  assert.equal(m.pairs, null);
  assert.match(m.why, /pair 2 appears 2 times on the head side/);
  const cell = judge({ base, head: twice });
  assert.equal(cell.verdict, 'inconclusive');
  assert.match(cell.reasons.join(' '), /pair 2 appears 2 times on the head side/);
  // Base side: the same.
  assert.match(
    matchPairs([base[0], renumber(base[1], 1), base[2]], head).why,
    /pair 1 appears 2 times on the base side/,
  );
});

test('every pair whole: pair numbers on some runs only are refused; results without any still pair by run order', () => {
  const { base, head } = pairs(3);
  const strip = (r) => ({ ...r, meta: { ...r.meta, pair: undefined } });
  const some = matchPairs(base, [head[0], strip(head[1]), head[2]]);
  assert.equal(some.pairs, null);
  assert.match(some.why, /the head's run 2 of 3 carries no pair number/);
  // Older results, no pair numbers anywhere, visibly interleaved: matched by run order.
  assert.equal(matchPairs(base.map(strip), head.map(strip)).by, 'run order');
  // Without pair numbers a side short of a run cannot say which pair lost it: still refused.
  const short = matchPairs(base.map(strip), head.slice(0, 2).map(strip));
  assert.equal(short.pairs, null);
  assert.match(short.why, /3 base vs 2 head runs/);
  assert.equal(short.broken, true);
});
