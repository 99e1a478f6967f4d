// A duet's change in the data plane travels with the head's results (duet-change.json),
// so the gate job's comment leads with it; it comes from a PR's artifacts, so it is read
// bounded and refused quietly when it is not what tailgate writes.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { DUET_CHANGE_FILE, readDuetChange } from '../../src/result/duet-change.js';
import { duetDiffText } from '../../src/report/effective-config.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { scratchDir } from '../helpers/scratch.js';

const CHANGE = [{ directive: '--serversTransport.maxIdleConnsPerHost', before: '320', after: '-1' }];

function headDir(doc) {
  const dir = scratchDir('tg-duet-change-');
  mkdirSync(join(dir, 'duet-20261124T095303Z'));
  writeFileSync(
    join(dir, 'duet-20261124T095303Z', DUET_CHANGE_FILE),
    typeof doc === 'string' ? doc : JSON.stringify(doc),
  );
  return dir;
}

test("duet change: read from a run folder under the head's results, as duet-cell.sh leaves it", () => {
  assert.deepEqual(readDuetChange(headDir({ kind: 'tailgate.duet-change', changes: CHANGE })), CHANGE);
  assert.equal(readDuetChange(join(tmpdir(), 'tg-no-such-dir')), null);
});

test('duet change: anything else is left out, never an error (it is context, not evidence)', () => {
  for (const doc of [
    '{ not json',
    { kind: 'other', changes: CHANGE },
    { kind: 'tailgate.duet-change', changes: [{ directive: 'x'.repeat(301), before: 'a', after: 'b' }] },
    { kind: 'tailgate.duet-change', changes: [{ directive: 'x', before: 1, after: 'b' }] },
    { kind: 'tailgate.duet-change', changes: Array.from({ length: 51 }, () => CHANGE[0]) },
    `{"kind":"tailgate.duet-change","changes":[],"pad":"${'x'.repeat(70_000)}"}`,
  ])
    assert.equal(readDuetChange(headDir(doc)), null, JSON.stringify(doc).slice(0, 60));
});

test("duet change: the comment says it was a duet and leads with the head's change", () => {
  const doc = {
    mode: 'paired',
    overall: 'pass',
    exitCode: 0,
    counts: { pass: 1 },
    procedure: { alpha: 0.05, blockingTests: 2 },
    confirm: [],
    cells: [
      {
        cell: 'traefik/default/steady',
        verdict: 'pass',
        reasons: [],
        warnings: [],
        metrics: [{ metric: 'p99', design: 'concurrent', status: 'pass' }],
      },
    ],
    duetChange: CHANGE,
  };
  const md = renderMarkdown(doc, { lead: duetDiffText(doc.duetChange, { markdown: true }) });
  assert.match(
    md,
    /\*\*What the head changes in the data plane\*\* .*`--serversTransport\.maxIdleConnsPerHost` `320` → `-1`/,
  );
  assert.match(md, /Duet: base and head ran at the same time in one cluster/);
  assert.doesNotMatch(md, /interleaved/);
  // A cell that could not be gated (k6 fell behind) has no metrics: still a duet.
  const bare = { ...doc, overall: 'inconclusive', cells: [{ ...doc.cells[0], verdict: 'inconclusive', metrics: [] }] };
  assert.match(renderMarkdown(bare), /Duet: base and head ran at the same time/);
});

test("duet change: the workload a PR's duet changed is read from the same file, bounded; a document with only that has no data-plane changes", async () => {
  const { mkdirSync, writeFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { readDuetChange, readWorkloadChange } = await import('../../src/result/duet-change.js');
  const head = scratchDir('tg-duet-wl-');
  mkdirSync(join(head, 'duet-1'));
  const workload = ['scenario "steady": rate 500 → 300'];
  writeFileSync(
    join(head, 'duet-1', 'duet-change.json'),
    JSON.stringify({ kind: 'tailgate.duet-change', changes: [], workload }),
  );
  assert.deepEqual(readWorkloadChange(head), workload);
  assert.deepEqual(readDuetChange(head), []);
  writeFileSync(
    join(head, 'duet-1', 'duet-change.json'),
    JSON.stringify({ kind: 'tailgate.duet-change', changes: [], workload: ['x'.repeat(301)] }),
  );
  assert.equal(readWorkloadChange(head), null, 'over 300 characters: left out');
});
