// The release checks everything GitHub will check of its release before anything is
// published (issue 59, item 8): notes GitHub refuses (over 125,000 characters, its limit
// for a release body) once left a published package with no release and an unmoved tag.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { GITHUB_BODY_MAX, notesProblems, releaseProblems } from '../../ci/release-notes.js';
import { release } from '../../ci/release-github.js';
import { startRestStandin } from '../workflows/rest-standin.js';
import { scratchDir } from '../helpers/scratch.js';

const pkg = { version: '1.2.0' };
const log = (body) => `# Changelog\n\n## Unreleased\n\n## 1.2.0\n\n${body}\n\n## 1.1.0\n\n- one\n`;

test("release before publish: a CHANGELOG section over GitHub's 125,000-character release body is refused by check, naming file, section and limit", () => {
  assert.equal(GITHUB_BODY_MAX, 125_000);
  assert.deepEqual(releaseProblems('v1.2.0', { pkg, changelog: log('x'.repeat(GITHUB_BODY_MAX)) }), []);
  const over = releaseProblems('v1.2.0', { pkg, changelog: log('x'.repeat(GITHUB_BODY_MAX + 1)) });
  assert.equal(over.length, 1);
  assert.match(
    over[0],
    /^CHANGELOG\.md: the "## 1\.2\.0" section is 125001 characters; a GitHub release body holds at most 125000/,
  );
  // Characters, as GitHub counts them: a note in a script outside the BMP is not cut short.
  assert.deepEqual(notesProblems('𝄞'.repeat(GITHUB_BODY_MAX), '1.2.0'), []);
  assert.match(notesProblems('- a\0b', '1.2.0')[0], /NUL character/);
});

test('release before publish: release.yml makes and checks the notes before npm publish; github-release refuses them before any request', async () => {
  const wf = readFileSync(new URL('../../../.github/workflows/release.yml', import.meta.url), 'utf8');
  const at = (step) => wf.indexOf(`run: tools/ci/release.sh ${step}\n`);
  const order = ['check', 'pack', 'notes', 'publish', 'github-release', 'move-major-tag'].map(at);
  assert.ok(!order.includes(-1), `a step is missing: ${order}`);
  assert.deepEqual(
    order,
    [...order].sort((a, b) => a - b),
    'check, pack, notes, publish, github-release, move-major-tag',
  );
  const notes = join(scratchDir('tg-notes-'), 'notes.md');
  writeFileSync(notes, 'x'.repeat(GITHUB_BODY_MAX + 1));
  const api = await startRestStandin({});
  const saved = { ...process.env };
  Object.assign(process.env, { GITHUB_API_URL: api.url, GITHUB_REPOSITORY: 'o/r', GITHUB_TOKEN: 't' });
  try {
    await assert.rejects(release('v1.2.0', notes), /at most 125000/);
    assert.equal(api.state.releases.length, 0);
  } finally {
    process.env = saved;
    api.close();
  }
});
