import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { GITHUB_COMMENT_LIMIT, MARKER, renderMarkdown } from '../../src/report/markdown.js';
import { renderTerminal } from '../../src/report/terminal.js';
import { describe } from '../../src/compare/cell-verdict.js';
import { goldenVerdict } from '../helpers/golden-verdict.js';

const GOLDEN = new URL('../fixtures/golden/', import.meta.url);
// Made by `tailgate compare` on fixture runs, not kept by hand (helpers/golden-verdict.js).
const verdict = await goldenVerdict();

// UPDATE_GOLDEN=1 make test regenerates; review the diff like code.
function golden(name, actual) {
  const url = new URL(name, GOLDEN);
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(url, actual);
  assert.equal(
    actual,
    readFileSync(url, 'utf8'),
    `${name} differs from the golden file (UPDATE_GOLDEN=1 to regenerate after review)`,
  );
}

test('markdown: the PR comment body matches the golden file', () => {
  golden('comment.md', renderMarkdown(verdict, { runUrl: 'https://github.com/o/r/actions/runs/1' }));
});

test('terminal: the table matches the golden file', () => {
  golden('terminal.txt', `${renderTerminal(verdict)}\n`);
});

test('markdown: sticky marker, verdict line, mermaid chart, folded details', () => {
  const body = renderMarkdown(verdict);
  assert.ok(body.startsWith(MARKER));
  assert.match(body, /### tailgate ❌ regression — 1 of 4 cells/);
  assert.match(body, /```mermaid\nxychart-beta/);
  assert.match(body, /<details><summary>❌ nginx-reload\/default\/churn: regression/);
});

test("markdown: stays under GitHub's comment limit with hundreds of cells", () => {
  const many = {
    ...verdict,
    cells: Array.from({ length: 900 }, (_, i) => ({
      ...verdict.cells[i % 3],
      cell: `controller-${i}/tuning/scenario`,
    })),
  };
  const body = renderMarkdown(many);
  assert.ok(body.length < GITHUB_COMMENT_LIMIT, `${body.length}`);
  assert.match(body, /more cells in the artifacts/);
  assert.ok(body.startsWith(MARKER));
});

test('markdown: HTML, mentions and table breakers from files are neutralized', () => {
  const hostile = {
    ...verdict,
    cells: [
      {
        ...verdict.cells[1],
        cell: 'a|b`c',
        reasons: ['<img src=x onerror=alert(1)> @octocat | **bold** [link](http://evil)'],
      },
    ],
  };
  const body = renderMarkdown(hostile);
  assert.ok(!body.includes('<img'), 'no raw HTML');
  assert.ok(!/@octocat/.test(body), 'no live mention');
  assert.match(body, /`a\\\|b c`/);
  assert.ok(!body.includes('[link](http://evil)'));
});

// A cell with one metric, as the gate writes it (compare/cell-verdict.js publicTest).
const p99Cell = (p99, extra = {}) => ({
  cell: 'nginx-reload/default/churn',
  verdict: 'pass',
  reasons: [],
  warnings: [],
  head: { p50: 1, p99: p99.head, 'p99.99': 3, errors: 0 },
  base: { errors: 0 },
  metrics: [
    { metric: 'p99', blocking: true, threshold: 0.1, intervalLevel: 0.9, p: '0.5', adjustedP: '1', family: 1, ...p99 },
  ],
  ...extra,
});
const rowOf = (body) => body.split('\n').find((l) => l.includes('`nginx-reload/default/churn`'));
const doc = (cells, procedure = { alpha: 0.05, blockingTests: 1, confirmedTests: 0 }) => ({
  ...verdict,
  mode: 'paired',
  overall: cells[0].verdict,
  cells,
  procedure,
});

test('markdown: a large Δ that passed carries its interval in the row; one within the threshold does not', () => {
  const big = rowOf(
    renderMarkdown(doc([p99Cell({ base: 15, head: 10, ratio: 0.654, ratioLow: 0.277, ratioHigh: 1.544 })])),
  );
  assert.match(big, /\| ✅ \|.*\| -34\.6% \(90%: -72\.3…\+54\.4%\) \|/);
  const small = rowOf(
    renderMarkdown(doc([p99Cell({ base: 10, head: 10.5, ratio: 1.05, ratioLow: 0.9, ratioHigh: 1.2 })])),
  );
  assert.match(small, /\| \+5\.0% \|/);
  assert.doesNotMatch(small, /90%:/);
});

test('markdown: plurals — one blocking test, one cell, one pair; counts only of blocking tests', () => {
  const one = renderMarkdown(doc([p99Cell({ base: 10, head: 10, ratio: 1, ratioLow: 0.9, ratioHigh: 1.1 })]));
  assert.match(one, /fails: ≤ 5% over its 1 blocking test\./);
  const three = renderMarkdown(
    doc([p99Cell({ base: 10, head: 10, ratio: 1, ratioLow: 0.9, ratioHigh: 1.1 })], {
      alpha: 0.05,
      blockingTests: 3,
      confirmedTests: 1,
    }),
  );
  assert.match(three, /fails: ≤ 5% over all 3 blocking tests together \(1 confirmed on fresh runs\)\./);
  const m = { metric: 'p99', base: 1, head: 2, ratio: 2, ratioLow: 1.5, ratioHigh: 2.5, p: '0.01', adjustedP: '0.01' };
  assert.match(describe({ ...m, family: 1 }), /adjusted 0\.01 over 1 test\)$/);
  assert.match(describe({ ...m, family: 2 }), /over 2 tests\)$/);
  const g = { group: '5xx', base: 0, head: 9, p: '0.001', adjustedP: '0.002', family: 1 };
  assert.equal(describe(g), 'errors: 5xx 0 → 9 (p=0.001, adjusted 0.002 over 1 test)');
});

test('markdown: a cell awaiting its round is pending (⏳), never inconclusive or a pass', () => {
  const cell = p99Cell(
    { base: 12.7, head: 38.8, ratio: 3.06, ratioLow: 2.08, ratioHigh: 4.5, look: 'pending', status: 'pass' },
    {
      verdict: 'inconclusive',
      awaiting: 'confirmation',
      baseReps: 2,
      headReps: 2,
      reasons: ['awaiting confirmation: p99 may be worse'],
    },
  );
  const body = renderMarkdown({ ...doc([cell]), pending: true });
  assert.match(rowOf(body), /^\| ⏳ \|.*\| \+206% \(90%: \+108…\+350%\) \|/);
  assert.match(body, /<summary>⏳ nginx-reload\/default\/churn: awaiting confirmation \(2 base runs vs 2 head runs\)/);
  assert.match(body, /^\| p99 \|.*\| 0\.5 \(after confirmation\) \| awaiting confirmation \|$/m);
  assert.match(body, /⏳ pending: may be a regression; a confirmation round on fresh runs decides/);
  // The terminal says so too: its row pending, its verdict line not yet the verdict.
  const term = renderTerminal({ ...doc([cell]), counts: { inconclusive: 1 }, overall: 'inconclusive', exitCode: 3 });
  assert.match(term, /^nginx-reload\/default\/churn +pending /m);
  assert.match(
    term,
    /verdict: INCONCLUSIVE \(1 inconclusive; 1 of them awaiting a confirmation round, not the verdict yet\) — exit 3/,
  );
});

test('markdown: a confirmed cell is shown by its fresh runs; the fold labels both looks', () => {
  const confirmation = {
    runs: 2,
    ratio: 2.99,
    ratioLow: 2.04,
    ratioHigh: 4.39,
    base: 12.7,
    head: 38.1,
    p: '0.0011',
    combinedP: '0.001',
  };
  const cell = p99Cell(
    {
      base: 12.7,
      head: 38.8,
      ratio: 3.06,
      ratioLow: 2.08,
      ratioHigh: 4.5,
      status: 'regression',
      look: 'second',
      confirmation,
    },
    { verdict: 'regression', baseReps: 2, headReps: 2 },
  );
  const body = renderMarkdown(doc([cell], { alpha: 0.05, blockingTests: 1, confirmedTests: 1 }));
  assert.match(rowOf(body), /^\| ❌ \| `nginx-reload\/default\/churn` \| 1\.00ms \| 38\.1ms \| \+199\.0% 🔺 \|/);
  assert.match(body, /\| first look ×3\.06 \(2\.08–4\.5\); 2 fresh runs ×2\.99 \(2\.04–4\.39\) \|/);
});

test('markdown: the fold shows the real error counts; no † mark without its note', () => {
  const errors = { metric: 'errors', blocking: true, status: 'regression', groups: [], classes: [], base: 0, head: 55 };
  const cell = p99Cell(
    { base: 10, head: 10, ratio: 1, ratioLow: 0.9, ratioHigh: 1.1, status: 'pass' },
    { verdict: 'regression' },
  );
  cell.metrics.push(errors);
  const body = renderMarkdown(doc([cell]));
  assert.match(body, /^\| errors \| 0 \| 55 \| \| \| regression \|$/m);
  assert.doesNotMatch(body, /⁽†⁾/, 'no cell has a "sees" figure');
  assert.match(renderMarkdown(verdict), /sees p99 ⁽†⁾[\s\S]*\n⁽†⁾ the p99 change/);
});
