// The design of record (issue 67, item 2): which comparison a gated matrix uses — a duet,
// interleaved pairs, baselines — is one of the base's rules, as its pair budget is
// (compare/pairs-of-record.js). A head that changes it is named first on the comment, and the
// comment does not say the base's rules were used for it. Held out: a PR switched its gate
// from interleaved pairs to baselines (or from a duet to pairs, less sensitive), the change was
// listed nowhere, and the comment said the base's rules applied.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { baseGate } from '../../src/compare/base-policy.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { pairedCompareIn } from '../helpers/cli.js';
import { committedRepo } from '../helpers/git-repo.js';

const ROOT = new URL('../../../', import.meta.url).pathname;
const RUNS = join(ROOT, 'tools/test/fixtures/runs');
const bench = (matrix) => `apiVersion: tailgate/v1
kind: Bench
controllers:
  nginx-reload: { type: local, variant: nginx-reload }
scenarios:
  churn: { script: steady, rate: 300, duration: 5s }
matrices:
  local: { target: local, controllers: [nginx-reload], scenarios: [churn]${matrix} }
`;

function inRepo(baseMatrix, headMatrix) {
  const { dir, base } = committedRepo('tg-design-', { 'bench.yaml': bench(baseMatrix) });
  writeFileSync(join(dir, 'bench.yaml'), bench(headMatrix));
  return { dir, base };
}

const compareIn = (dir, extra) => pairedCompareIn(dir, RUNS, extra);

function designOf(baseMatrix, headMatrix) {
  const { dir, base } = inRepo(baseMatrix, headMatrix);
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    return baseGate({
      ref: base,
      configFile: 'bench.yaml',
      matrix: 'local',
      headGate: null,
      headMatrix: { compare: headMatrix.includes('baseline') ? 'baseline' : 'paired', repetitions: 3 },
    });
  } finally {
    process.chdir(cwd);
  }
}

test("design of record: the base's design is part of its rules — pairs of record name it", () => {
  const same = designOf(', compare: paired, repetitions: 3', ', compare: paired, repetitions: 3');
  assert.equal(same.design, 'interleaved pairs');
  assert.deepEqual(same.designChange ?? [], []);
});

test('design of record: a head that switches interleaved pairs to baselines is named, first on the comment', async () => {
  const { dir, base } = inRepo(', compare: paired, repetitions: 3', ', compare: baseline, repetitions: 3');
  const r = await compareIn(dir, ['--gate-ref', base, '--matrix', 'local']);
  assert.deepEqual(r.doc.designChange, [
    'matrix local: interleaved pairs (compare: paired) → baselines (compare: baseline)',
  ]);
  const lead = renderMarkdown(r.doc)
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('<!--') && !l.startsWith('###') && !l.startsWith('**Next:**'));
  assert.match(
    lead[0],
    /This PR changes the gate's design\*\*: matrix local: interleaved pairs \(compare: paired\) → baselines \(compare: baseline\)/,
  );
  assert.doesNotMatch(lead[0], /this verdict uses the base's/);
  // Not listed among the rules the verdict took from the base: it did not.
  assert.ok(!(r.doc.gateChange ?? []).some((c) => /compare/.test(c)), JSON.stringify(r.doc.gateChange));
});

test('design of record: a duet that becomes interleaved pairs, or one side at a time, is a design change', () => {
  const { designChanges } = baseGateModule;
  const duet = { compare: 'concurrent', head: 'traefik' };
  assert.deepEqual(designChanges(duet, { compare: 'paired' }, 'pr'), [
    'matrix pr: a duet (compare: concurrent) → interleaved pairs (compare: paired)',
  ]);
  assert.deepEqual(designChanges(duet, { ...duet, alternate: true }, 'pr'), [
    'matrix pr: a duet (compare: concurrent) → a duet loaded one side at a time (compare: concurrent, alternate: true)',
  ]);
  assert.deepEqual(designChanges(duet, { ...duet, alternate: false }, 'pr'), []);
  assert.deepEqual(designChanges(null, duet, 'pr'), [], 'no base matrix: no design of record');
});

const baseGateModule = await import('../../src/compare/base-policy.js');
