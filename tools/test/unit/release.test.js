// The release's own logic (tools/ci/release-notes.js, release-github.js), beside the act
// case that runs release.yml (tools/test/workflows/release.test.js): tags, CHANGELOG
// sections, and when the major tag moves — against the REST stand-in, in process.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { changelogSection, parseTag, releaseProblems } from '../../ci/release-notes.js';
import { moveMajorTag, release } from '../../ci/release-github.js';
import { startRestStandin } from '../workflows/rest-standin.js';
import { scratchDir } from '../helpers/scratch.js';

const LOG = `# Changelog\n\n## Unreleased\n\n## [1.2.0] - 2026-12-01\n\n- two\n\n## 1.2.0-rc.1\n\n- rc\n\n## v1.1.0 — 2026-11-01\n\n- one\n`;

test('release tags are semver; a CHANGELOG section is found in the usual heading styles, and only its own', () => {
  assert.deepEqual(parseTag('v1.2.3'), { version: '1.2.3', major: 1, minor: 2, patch: 3, prerelease: false });
  assert.equal(parseTag('v1.2.3-rc.1').prerelease, true);
  assert.equal(parseTag('1.2.3'), null);
  assert.equal(parseTag('v1'), null);
  assert.equal(changelogSection(LOG, '1.2.0'), '- two');
  assert.equal(changelogSection(LOG, '1.2.0-rc.1'), '- rc');
  assert.equal(changelogSection(LOG, '1.1.0'), '- one');
  assert.equal(changelogSection(LOG, '1.0.0'), null);
});

test("a tag that is not package.json's version, or has no CHANGELOG section, is refused naming file and rule", () => {
  assert.deepEqual(releaseProblems('v1.2.0', { pkg: { version: '1.2.0' }, changelog: LOG }), []);
  const bad = releaseProblems('v1.3.0', { pkg: { version: '1.2.0' }, changelog: LOG });
  assert.match(bad[0], /^package\.json: version is "1\.2\.0", the tag v1\.3\.0 says "1\.3\.0"/);
  assert.match(bad[1], /^CHANGELOG\.md: no "## 1\.3\.0" section/);
  assert.match(releaseProblems('main', { pkg: { version: '1.2.0' }, changelog: LOG })[0], /not a version tag/);
  const empty = releaseProblems('v2.0.0', { pkg: { version: '2.0.0' }, changelog: '## 2.0.0\n\n## 1.0.0\n- x\n' });
  assert.match(empty[0], /section is empty/);
});

async function withApi(refs, fn) {
  const api = await startRestStandin({ refs });
  const saved = { ...process.env };
  Object.assign(process.env, { GITHUB_API_URL: api.url, GITHUB_REPOSITORY: 'o/r', GITHUB_TOKEN: 't' });
  try {
    return await fn(api);
  } finally {
    process.env = saved;
    api.close();
  }
}

test("the major tag: created for a major's first release, moved forward, never back, never to a pre-release", async () => {
  const A = 'a'.repeat(40);
  const B = 'b'.repeat(40);
  await withApi([], async (api) => {
    assert.match(await moveMajorTag('v2.0.0', A), /v2: now at a{40}/);
    assert.deepEqual(api.state.refs, [{ ref: 'refs/tags/v2', object: { sha: A } }]);
  });
  const refs = () => [
    { ref: 'refs/tags/v1', object: { sha: A } },
    { ref: 'refs/tags/v1.3.0', object: { sha: A } },
    { ref: 'refs/tags/v1.4.0-rc.1', object: { sha: A } },
  ];
  await withApi(refs(), async (api) => {
    assert.match(await moveMajorTag('v1.2.5', B), /v1: not moved \(v1\.3\.0 is newer than v1\.2\.5\)/);
    assert.match(await moveMajorTag('v1.4.0-rc.2', B), /not moved \(v1\.4\.0-rc\.2 is a pre-release\)/);
    assert.equal(api.state.refs[0].object.sha, A);
    assert.match(await moveMajorTag('v1.3.1', B), /v1: now at b{40}/);
    assert.equal(api.state.refs[0].object.sha, B);
  });
});

test('the GitHub release: created with the notes, its notes updated on a re-run, a pre-release marked', async () => {
  const notes = join(scratchDir('tg-release-'), 'notes.md');
  await withApi([], async (api) => {
    writeFileSync(notes, '- two\n');
    assert.match(await release('v1.2.0', notes), /created/);
    writeFileSync(notes, '- two, amended\n');
    assert.match(await release('v1.2.0', notes), /existed, notes updated/);
    assert.equal(api.state.releases.length, 1);
    assert.equal(api.state.releases[0].body, '- two, amended\n');
    assert.equal(api.state.releases[0].make_latest, 'true');
    await release('v1.3.0-rc.1', notes);
    assert.equal(api.state.releases[1].prerelease, true);
  });
});
