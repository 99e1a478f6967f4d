// The runner's side of sequential pairs (run/sequence.js, called by runner.js before every
// plan cell): an optional repetition runs only while the interim look cannot decide its
// cell; once decided, the cell's remaining optional repetitions are skipped with one line
// saying why, and every look is recorded beside the cell's results.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { sequence } from '../../src/run/sequence.js';
import { scratchDir } from '../helpers/scratch.js';

// A duet plan as planMatrix makes it: pairs 1–3 fixed, 4–6 optional, two scenarios.
function planCells({ concurrent = true } = {}) {
  const cells = [];
  for (let rep = 1; rep <= 6; rep++)
    for (const s of ['steady', 'pod-kill'])
      cells.push({
        key: `haproxy-ingress/default/${s}`,
        controllerName: 'haproxy-ingress',
        tuningName: 'default',
        scenarioName: s,
        repetition: rep,
        ...(concurrent && { concurrent: { name: 'haproxy-ingress' } }),
        sequential: { minPairs: 3, maxPairs: 6 },
        ...(rep > 3 && { optional: true }),
      });
  return cells;
}

// What the runner does with a cell it runs: one result per side (the contents are the
// interim stage's business, faked here).
function ran(runDir, cell) {
  for (const side of ['base', 'head']) {
    const dir = join(runDir, side, cell.key, `rep-${cell.repetition}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'result.json'), '{}');
  }
}

test('optional repetitions: a decided cell skips the rest, an undecided one runs to its budget', () => {
  const runDir = scratchDir('tg-sequence-');
  const lines = [];
  const seen = [];
  // steady is clearly fine once it has 4 pairs; pod-kill never decides.
  const interim = ({ cell, base, head }) => {
    seen.push([cell.scenarioName, cell.repetition, base.length, head.length]);
    return cell.scenarioName === 'steady' && base.length >= 4
      ? { decision: 'stop-pass', why: 'p99 ×1.01, clearly within 10%', pairs: base.length }
      : { decision: 'continue', why: 'open: p99 ×1.12', pairs: base.length };
  };
  const looks = sequence({ runDir, stages: { interim }, log: (l) => lines.push(l) });
  const runs = planCells().filter((c) => looks.wanted(c) && (ran(runDir, c), true));
  assert.deepEqual(
    runs.map((c) => `${c.scenarioName}#${c.repetition}`),
    [
      'steady#1',
      'pod-kill#1',
      'steady#2',
      'pod-kill#2',
      'steady#3',
      'pod-kill#3',
      'steady#4',
      'pod-kill#4',
      'pod-kill#5',
      'pod-kill#6',
    ],
  );
  // The look reads the pairs already ingested on both sides, and looks once per decision.
  assert.deepEqual(seen, [
    ['steady', 4, 3, 3],
    ['pod-kill', 4, 3, 3],
    ['steady', 5, 4, 4],
    ['pod-kill', 5, 4, 4],
    ['pod-kill', 6, 5, 5],
  ]);
  assert.ok(
    lines.includes(
      'haproxy-ingress/default/steady: decided after 4 pairs (p99 ×1.01, clearly within 10%) — 2 optional pairs skipped',
    ),
    lines.join('\n'),
  );
  assert.ok(
    lines.some((l) => /pod-kill: not decided after 5 pairs \(open: p99 ×1\.12\) — pair 6 of at most 6/.test(l)),
  );
  const record = (s, side) =>
    JSON.parse(readFileSync(join(runDir, side, 'haproxy-ingress/default', s, 'sequential.json'), 'utf8'));
  assert.deepEqual(record('steady', 'head'), {
    kind: 'tailgate.sequential',
    cell: 'haproxy-ingress/default/steady',
    minPairs: 3,
    maxPairs: 6,
    looks: [
      { pairs: 3, decision: 'continue', why: 'open: p99 ×1.12' },
      { pairs: 4, decision: 'stop-pass', why: 'p99 ×1.01, clearly within 10%' },
    ],
    stoppedBy: 'stop-pass',
  });
  assert.equal(record('pod-kill', 'base').stoppedBy, 'budget');
  assert.equal(record('pod-kill', 'base').looks.length, 3);
});

test('optional repetitions: a stop for a regression ends the cell too; a look that cannot read its pairs runs the pair', async () => {
  const { InputError } = await import('../../src/errors.js');
  const runDir = scratchDir('tg-sequence-');
  const lines = [];
  let calls = 0;
  const interim = ({ cell }) => {
    calls++;
    if (cell.scenarioName === 'pod-kill') throw new InputError('rep-2/result.json: not a tailgate result');
    return { decision: 'stop-regression', why: 'p99 ×1.52, p=2.0e-6 ≤ 7.1e-5', pairs: 3 };
  };
  const looks = sequence({ runDir, stages: { interim }, log: (l) => lines.push(l) });
  const runs = planCells().filter((c) => looks.wanted(c) && (ran(runDir, c), true));
  assert.equal(runs.filter((c) => c.scenarioName === 'steady').length, 3);
  assert.equal(runs.filter((c) => c.scenarioName === 'pod-kill').length, 6);
  assert.equal(calls, 4);
  assert.ok(lines.some((l) => /steady: decided after 3 pairs \(p99 ×1\.52.*\) — 3 optional pairs skipped/.test(l)));
  assert.ok(
    lines.some((l) => /pod-kill: not decided after 3 pairs \(could not look: .*not a tailgate result\)/.test(l)),
  );
});

test('optional repetitions of a cell that is no duet here (a concurrent matrix run without a head) never run', () => {
  const runDir = scratchDir('tg-sequence-');
  const lines = [];
  const looks = sequence({
    runDir,
    stages: { interim: () => assert.fail('no look without a duet') },
    log: (l) => lines.push(l),
  });
  const runs = planCells({ concurrent: false }).filter((c) => looks.wanted(c));
  assert.equal(runs.length, 6);
  assert.deepEqual(lines, [
    'haproxy-ingress/default/steady: not a duet here — its 3 fixed pairs',
    'haproxy-ingress/default/pod-kill: not a duet here — its 3 fixed pairs',
  ]);
  assert.equal(existsSync(join(runDir, 'base')), false);
});
