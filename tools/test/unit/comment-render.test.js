// The PR comment as people see it: rendered with cmark-gfm, GitHub's own Markdown engine
// (make setup installs its Python binding), then checked for the defects a reader saw on
// github.com — a footer swallowed by a raw-HTML block, literal link syntax, unclosed
// folds, tables that did not become tables.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { renderMarkdown } from '../../src/report/markdown.js';
import { GFM_PYTHON as PYTHON, renderGfm } from '../helpers/gfm.js';
import { goldenVerdict } from '../helpers/golden-verdict.js';

const GOLDEN = new URL('../fixtures/golden/', import.meta.url);
// Made by `tailgate compare` on fixture runs, not kept by hand (helpers/golden-verdict.js).
const verdict = await goldenVerdict();

const render = renderGfm;

function defects(markdown, { runUrl } = {}) {
  const html = render(markdown);
  const text = html.replace(/<pre[\s\S]*?<\/pre>|<code>[\s\S]*?<\/code>/g, '');
  const count = (re) => (text.match(re) ?? []).length;
  const problems = [];
  if (/\]\(|\[[^\]]+\]\(/.test(text)) problems.push('literal link syntax in the rendered text');
  if (/\{\{|\}\}/.test(text)) problems.push('an unfilled template slot');
  if (count(/<details>/g) !== count(/<\/details>/g)) problems.push('a fold is not closed');
  if (count(/<details>/g) !== count(/<summary>/g)) problems.push('a fold without a summary');
  const tables = (markdown.match(/^\|[-:| ]+\|$/gm) ?? []).length;
  if (count(/<table>/g) !== tables) problems.push(`${tables} markdown tables but ${count(/<table>/g)} rendered`);
  const footer = html.match(/<sub>[\s\S]*?<\/sub>/)?.[0] ?? '';
  if (!footer) problems.push('no footer');
  if (runUrl && !footer.includes(`<a href="${runUrl}">`)) problems.push('the run link does not render as a link');
  if (!html.includes('<!-- tailgate:sticky-comment -->')) problems.push('the sticky marker is gone');
  return problems;
}

test('comment render: cmark-gfm is installed (make setup)', () => {
  assert.ok(existsSync(PYTHON), 'make setup creates .tools/venv');
  assert.match(
    render('| a |\n|---|\n| [x](https://github.com/o/r) |\n'),
    /<td><a href="https:\/\/github.com\/o\/r">x<\/a><\/td>/,
  );
});

test('comment render: the golden comments render without the defects seen on github.com', () => {
  for (const name of ['comment.md', 'gate-comment.md']) {
    const body = readFileSync(new URL(name, GOLDEN), 'utf8');
    const runUrl = body.match(/\]\((https:\/\/github\.com\/o\/r\/actions\/runs\/\d+)\)/)?.[1];
    assert.ok(runUrl, `${name} has a run link`);
    assert.deepEqual(defects(body, { runUrl }), [], name);
  }
});

test('comment render: all-pass, size-trimmed and link-less comments render cleanly too', () => {
  const pass = {
    ...verdict,
    overall: 'pass',
    exitCode: 0,
    cells: verdict.cells.map((c) => ({ ...c, verdict: 'pass', warnings: [] })),
  };
  const html = render(renderMarkdown(pass));
  assert.equal((html.match(/<details>/g) ?? []).length, 2, 'all green: only the chart and "how to read this" fold');
  assert.deepEqual(defects(renderMarkdown(pass)), []);
  const many = {
    ...verdict,
    cells: Array.from({ length: 900 }, (_, i) => ({ ...verdict.cells[i % 3], cell: `c-${i}/t/s` })),
  };
  assert.deepEqual(
    defects(renderMarkdown(many, { runUrl: 'https://github.com/o/r/actions/runs/7' }), {
      runUrl: 'https://github.com/o/r/actions/runs/7',
    }),
    [],
  );
});

test('comment render: the check itself fails on the old footer defect', () => {
  // The defect as it was: {{details}} and {{footer}} on adjacent lines, so the footer
  // line joined the raw-HTML block that `</details>` opened and its link stayed literal.
  const broken =
    '<!-- tailgate:sticky-comment -->\n<details><summary>x</summary>\n\ny\n\n</details>\n<sub>[Run](https://github.com/o/r/actions/runs/1) · exit 0</sub>\n';
  assert.ok(
    defects(broken, { runUrl: 'https://github.com/o/r/actions/runs/1' }).includes(
      'literal link syntax in the rendered text',
    ),
  );
});

test('README shows the top of the golden gate comment as a reviewer reads it, line for line', () => {
  const root = new URL('../../../', import.meta.url);
  const readme = readFileSync(new URL('README.md', root), 'utf8');
  const m = /<!-- golden:gate-comment\.md -->\n([\s\S]*?)\n<!-- \/golden -->/.exec(readme);
  assert.ok(m, 'README.md has the excerpt between <!-- golden:gate-comment.md --> and <!-- /golden -->');
  const lines = m[1].split('\n').map((l) => l.replace(/^> ?/, ''));
  const golden = readFileSync(new URL('tools/test/fixtures/golden/gate-comment.md', root), 'utf8');
  assert.ok(golden.includes(lines.join('\n')), "the excerpt is a run of the golden comment's lines (copy them again)");
});
