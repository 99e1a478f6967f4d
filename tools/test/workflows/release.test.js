// make test-workflows: release.yml on a push of a version tag, executed by act in a
// scratch copy of this repository whose package.json and CHANGELOG.md are bumped to the
// tag, as a release commit would be. Stood in for, and nothing else:
// - the npm registry: RELEASE_NPM_DRY_RUN=1 makes the publish step
//   `npm publish --dry-run --offline` of the packed tarball (same flags, no upload);
// - GitHub's REST API: rest-standin.js records the release and the git refs;
// - the unit suite: RELEASE_UNIT_TESTS runs one file of it (docs-cli.test.js), not all;
// - GitHub's actions: standins/ (act.js).
// Then the tarball itself: unpacked, its `tailgate init` and `validate` run as a package
// install would run them.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { actMissing, gitRepo, preparedTree, ROOT, runAct } from './act.js';
import { startRestStandin } from './rest-standin.js';
import { changelogSection } from '../../ci/release-notes.js';
import { scratchDir } from '../helpers/scratch.js';

const skip = actMissing() || false;
const VERSION = '0.9.0';
const OLD = '1'.repeat(40);
let api;
let repo;
let sha;
before(async () => {
  if (skip) return;
  // v0 already points at an older release's commit: the release must move it.
  api = await startRestStandin({
    refs: [
      { ref: 'refs/tags/v0', object: { sha: OLD } },
      { ref: 'refs/tags/v0.8.0', object: { sha: OLD } },
    ],
  });
  repo = preparedTree('tg-wf-release-');
  const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
  writeFileSync(join(repo, 'package.json'), `${JSON.stringify({ ...pkg, version: VERSION }, null, 2)}\n`);
  const changelog = readFileSync(join(repo, 'CHANGELOG.md'), 'utf8');
  writeFileSync(
    join(repo, 'CHANGELOG.md'),
    changelog.replace(
      '## Unreleased\n',
      `## Unreleased\n\n## ${VERSION} — 2026-12-01\n\n### Added\n- The release test's entry.\n`,
    ),
  );
  sha = gitRepo(repo, { owner: 'tailgate-dev', name: 'tailgate' });
  for (const tag of [`v${VERSION}`, 'v0.9.1']) spawnSync('git', ['-C', repo, 'tag', tag]);
});
after(() => api?.close());

function release(tag, out) {
  return runAct({
    repo,
    workflow: '.github/workflows/release.yml',
    event: 'push',
    payload: {
      ref: `refs/tags/${tag}`,
      after: sha,
      repository: { full_name: 'tailgate-dev/tailgate', name: 'tailgate', owner: { login: 'tailgate-dev' } },
    },
    apiUrl: api.url,
    env: {
      RELEASE_NPM_DRY_RUN: '1',
      RELEASE_UNIT_TESTS: 'tools/test/unit/docs-cli.test.js',
      RELEASE_OUT: out,
      npm_config_update_notifier: 'false',
    },
    timeoutMs: 4 * 60_000,
  });
}

function keepLog(r, name) {
  const file = join(scratchDir('tg-wf-release-log-'), `${name}.log`);
  writeFileSync(file, r.log);
  return `${r.log.slice(-2500)}\n${file}`;
}

test(
  `workflows: release.yml on tag v${VERSION} packs, publishes (dry run), releases with the CHANGELOG notes, moves v0`,
  { skip, timeout: 5 * 60_000 },
  async () => {
    const out = scratchDir('tg-wf-release-out-');
    const started = Date.now();
    const r = await release(`v${VERSION}`, out);
    const seconds = Math.round((Date.now() - started) / 1000);
    const log = keepLog(r, 'release');
    assert.equal(r.code, 0, log);
    console.log(`release.yml under act: ${seconds} s`);
    assert.match(r.log, /is package\.json's version 0\.9\.0, and CHANGELOG\.md has its section/, log);
    assert.match(r.log, /ℹ pass [1-9]/, log);
    assert.match(
      r.log,
      /npm publish --dry-run --offline --provenance --access public --tag latest .*tailgate-0\.9\.0\.tgz/,
      log,
    );
    assert.match(r.log, /\+ tailgate@0\.9\.0/, log);

    // The package: what `npx tailgate init / validate / run / setup` read is in it.
    const tgz = join(out, `tailgate-${VERSION}.tgz`);
    assert.ok(existsSync(tgz), log);
    const files = spawnSync('tar', ['-tzf', tgz], { encoding: 'utf8' }).stdout.split('\n');
    for (const f of [
      'package/tools/bin/tailgate.js',
      'package/tools/src/cli/main.js',
      'package/tools/src/cli/setup.js',
      'package/schemas/bench.schema.json',
      'package/charts/controllers/traefik/controller.yaml',
      'package/k6/scenarios/steady.js',
      'package/tools/scripts/setup.sh',
      'package/LICENSE',
    ])
      assert.ok(files.includes(f), `${f} not in the tarball`);
    assert.ok(!files.some((f) => f.startsWith('package/tools/test/')), 'tests are not shipped');
    const unpacked = scratchDir('tg-wf-release-pkg-');
    spawnSync('tar', ['-xzf', tgz, '-C', unpacked]);
    // Its dependencies, as npm would install them beside it.
    symlinkSync(join(ROOT, 'node_modules'), join(unpacked, 'package', 'node_modules'));
    const adopter = scratchDir('tg-wf-release-adopter-');
    const tailgate = (...a) =>
      spawnSync(process.execPath, [join(unpacked, 'package/tools/bin/tailgate.js'), ...a], {
        cwd: adopter,
        encoding: 'utf8',
      });
    const init = tailgate('init', '--controller', 'traefik');
    assert.equal(init.status, 0, init.stdout + init.stderr);
    const valid = tailgate('validate', '--json');
    assert.equal(valid.status, 0, valid.stderr);
    assert.deepEqual(JSON.parse(valid.stdout), { ok: true, errors: [] });
    assert.equal(tailgate('--version').stdout.trim(), VERSION);

    // The GitHub release, with the CHANGELOG section as its notes.
    const rel = api.state.releases.find((x) => x.tag_name === `v${VERSION}`);
    assert.ok(rel, JSON.stringify(api.state.releases));
    // The section is the release's: its own entry, then what Unreleased held, up to the next heading.
    const notes = changelogSection(readFileSync(join(repo, 'CHANGELOG.md'), 'utf8'), VERSION);
    assert.match(notes, /^### Added\n- The release test's entry\.\n\n### /);
    assert.equal(rel.body.trim(), notes);
    assert.equal(rel.prerelease, false);
    // The major tag, moved to the tag's commit.
    assert.deepEqual(api.state.refs.find((x) => x.ref === 'refs/tags/v0').object, { sha });
    assert.ok(
      api.state.calls.some((c) => c.method === 'PATCH' && c.path.endsWith('/git/refs/tags/v0') && c.body.force),
    );
    // What the tarball's init wrote calls exactly that: the repository the release ran in
    // (package.json's) at the commit the tag it just moved names, the release's tag as the
    // comment (release.json in the package) — nothing else, in any `uses:`, and no second ref.
    const moved = api.state.calls.find((c) => c.method === 'PATCH' && c.path.includes('/git/refs/tags/'));
    assert.equal(moved.body.sha, sha);
    assert.ok(files.includes('package/release.json'), 'release.json in the tarball');
    for (const f of ['tailgate.yml', 'tailgate-comment.yml']) {
      const text = readFileSync(join(adopter, '.github', 'workflows', f), 'utf8');
      const uses = [...text.matchAll(/^\s+uses: (.+)$/gm)].map((m) => m[1]);
      assert.ok(uses.length > 0, f);
      for (const u of uses)
        assert.match(u, new RegExp(`^tailgate-dev/tailgate/\\.github/workflows/\\w+\\.yml@${sha} # v${VERSION}$`), f);
      assert.doesNotMatch(text, /tailgate-ref|tailgate-repository/, f);
    }
    assert.doesNotMatch(init.stdout, /^warning:/m, 'a release commit is pinned: nothing to warn of');
  },
);

test(
  "workflows: release.yml refuses a tag that is not package.json's version, before anything is built",
  { skip, timeout: 5 * 60_000 },
  async () => {
    const out = scratchDir('tg-wf-release-out-');
    const before = api.state.calls.length;
    const r = await release('v0.9.1', out);
    const log = keepLog(r, 'mismatch');
    assert.notEqual(r.code, 0, log);
    assert.match(r.log, /package\.json: version is "0\.9\.0", the tag v0\.9\.1 says "0\.9\.1"/, log);
    assert.match(r.log, /CHANGELOG\.md: no "## 0\.9\.1" section/, log);
    assert.ok(!existsSync(join(out, 'tailgate-0.9.1.tgz')), 'nothing packed');
    assert.deepEqual(api.state.calls.slice(before), [], 'nothing asked of GitHub');
  },
);
