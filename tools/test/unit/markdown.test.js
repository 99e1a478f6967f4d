import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { GITHUB_COMMENT_LIMIT, MARKER, renderMarkdown } from '../../src/report/markdown.js';
import { renderTerminal } from '../../src/report/terminal.js';

const GOLDEN = new URL('../fixtures/golden/', import.meta.url);
const verdict = JSON.parse(readFileSync(new URL('verdict.json', GOLDEN), 'utf8'));

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
