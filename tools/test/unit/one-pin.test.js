// Issue 68, item 2: one pin. A caller names tailgate once, in its `uses:` line; the
// reusable workflows check tailgate's scripts out at their own source (job.workflow_*)
// and tools/ci/tailgate-source.sh refuses an override naming another commit or
// repository. init from a released package pins the release's commit with its tag as the
// comment, writes the Dependabot entry that keeps it current, and zizmor's default policy
// finds nothing in what it writes.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { which } from '../../src/exec/tools.js';
import { scratchDir } from '../helpers/scratch.js';

const ROOT = new URL('../../../', import.meta.url).pathname;
const SOURCE = join(ROOT, 'tools', 'ci', 'tailgate-source.sh');

const git = (dir, ...a) => {
  const r = spawnSync('git', ['-C', dir, ...a], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim();
};

// A checkout of tailgate as actions/checkout leaves it: origin set, two commits.
function checkout() {
  const dir = scratchDir('tg-source-');
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.email', 'ci@example.com');
  git(dir, 'config', 'user.name', 'ci');
  git(dir, 'remote', 'add', 'origin', 'https://github.com/tailgate-dev/tailgate');
  writeFileSync(join(dir, 'a'), '1\n');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'older');
  const older = git(dir, 'rev-parse', 'HEAD');
  writeFileSync(join(dir, 'a'), '2\n');
  git(dir, 'commit', '-qam', 'newer');
  return { dir, older, head: git(dir, 'rev-parse', 'HEAD') };
}

const source = (env) => {
  const r = spawnSync(SOURCE, [], { encoding: 'utf8', env: { PATH: process.env.PATH, ...env } });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
};

test("tailgate-source.sh: the workflow's own commit passes; an override naming another commit or repository is refused (exit 2) naming both", () => {
  const { dir, older, head } = checkout();
  const own = { SOURCE_DIR: dir, WORKFLOW_REPOSITORY: 'tailgate-dev/tailgate', WORKFLOW_SHA: head };
  const ok = source(own);
  assert.equal(ok.code, 0, ok.out);
  assert.match(ok.out, new RegExp(`::notice::tailgate tailgate-dev/tailgate@${head}: this workflow's own commit`));
  // An override that resolves to the same commit (tailgate-ref: v0 beside uses: …@v0) agrees.
  const same = source({ ...own, TAILGATE_REF: 'v0', TAILGATE_REPOSITORY: 'Tailgate-Dev/Tailgate' });
  assert.equal(same.code, 0, same.out);
  assert.match(same.out, /the call also names it: tailgate-repository Tailgate-Dev\/Tailgate, tailgate-ref v0/);
  // tailgate-ref: main while the workflow was called @v0: its checkout is another commit.
  git(dir, 'checkout', '-q', '--detach', older);
  const other = source({ ...own, TAILGATE_REF: 'main' });
  assert.equal(other.code, 2, other.out);
  assert.match(
    other.out,
    new RegExp(
      `::error::tailgate source: refused — the caller's tailgate-ref main checked out tailgate-dev/tailgate@${older}, but this workflow is tailgate-dev/tailgate@${head}`,
    ),
  );
  assert.match(other.out, /drop tailgate-ref and tailgate-repository from the call/);
  git(dir, 'checkout', '-q', '--detach', head);
  const fork = source({ ...own, TAILGATE_REPOSITORY: 'someone/tailgate' });
  assert.equal(fork.code, 2, fork.out);
  assert.match(fork.out, /refused — the caller's tailgate-repository someone\/tailgate checked out/);
  // A runner that names no job.workflow_sha (act; an older runner): the override or the
  // triggering commit, said, not checked.
  const unnamed = source({ SOURCE_DIR: dir, TAILGATE_REF: 'v0' });
  assert.equal(unnamed.code, 0, unnamed.out);
  assert.match(
    unnamed.out,
    /tailgate tailgate-dev\/tailgate@[0-9a-f]{40}: tailgate-ref v0 \(this runner does not name the workflow's own commit/,
  );
  // No checkout at all is no tailgate to run.
  assert.equal(source({ SOURCE_DIR: scratchDir('tg-source-empty-'), WORKFLOW_SHA: head }).code, 2);
});

test('the composite action runs the source check as its `source` command', () => {
  const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8'));
  for (const k of ['workflow-repository', 'workflow-sha', 'tailgate-repository', 'tailgate-ref'])
    assert.equal(action.inputs[k].default, '', `action.yml input ${k}`);
  assert.match(
    readFileSync(join(ROOT, 'tools', 'ci', 'action.sh'), 'utf8'),
    /\n {2}source\) "\$here\/tailgate-source\.sh" ;;/,
  );
});

// A package as the release packs it (release.sh pack: package.json `files`, release.json
// naming the tag's commit), installed under an adopter's node_modules.
function releasedPackage(commit) {
  const repo = scratchDir('tg-pin-adopter-');
  const pkg = join(repo, 'node_modules', 'tailgate');
  for (const p of [
    'package.json',
    'CHANGELOG.md',
    'tools/bin',
    'tools/src',
    'tools/versions.json',
    'schemas',
    'charts',
  ])
    cpSync(join(ROOT, p), join(pkg, p), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(pkg, 'node_modules'));
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  writeFileSync(join(pkg, 'release.json'), JSON.stringify({ tag: `v${version}`, commit }));
  return { repo, pkg, version };
}

test("init from a released package: every uses: is the release's commit with its tag as the comment, no second ref, a Dependabot entry; zizmor's default policy finds nothing", () => {
  const commit = '5'.repeat(40);
  const { repo, pkg, version } = releasedPackage(commit);
  const r = spawnSync(
    process.execPath,
    [join(pkg, 'tools/bin/tailgate.js'), 'init', '--controller', 'traefik', '--with', 'dispatch,nightly'],
    { cwd: repo, encoding: 'utf8' },
  );
  assert.equal(r.status, 0, r.stderr);
  assert.doesNotMatch(r.stdout, /^warning:/m, 'a release commit is pinned: nothing to warn of');
  const dir = join(repo, '.github', 'workflows');
  const files = readdirSync(dir);
  assert.equal(files.length, 4);
  for (const f of files) {
    const text = readFileSync(join(dir, f), 'utf8');
    const uses = [...text.matchAll(/^\s+uses: (.+)$/gm)].map((m) => m[1]);
    assert.ok(uses.length > 0, f);
    for (const u of uses)
      assert.match(u, new RegExp(`^tailgate-dev/tailgate/\\.github/workflows/\\w+\\.yml@${commit} # v${version}$`), f);
    assert.doesNotMatch(text, /tailgate-ref|tailgate-repository/, `${f}: one pin`);
    assert.match(
      text,
      new RegExp(`# tailgate from tailgate-dev/tailgate at v${version}: the commit that tag names`),
      f,
    );
    assert.match(
      r.stdout,
      new RegExp(`${f.replace('.', '\\.')}: written \\(calls tailgate-dev/tailgate@${commit} # v${version}\\)`),
    );
  }
  const bot = parse(readFileSync(join(repo, '.github', 'dependabot.yml'), 'utf8'));
  assert.deepEqual(bot.updates, [
    {
      'package-ecosystem': 'github-actions',
      directory: '/',
      schedule: { interval: 'weekly' },
      cooldown: { 'default-days': 7 },
      groups: { tailgate: { patterns: ['tailgate-dev/tailgate*'] } },
    },
  ]);
  // An adopter's own dependabot.yml is kept, with the entry to add said.
  const other = join(repo, 'other');
  mkdirSync(join(other, '.github'), { recursive: true });
  writeFileSync(join(other, '.github', 'dependabot.yml'), 'version: 2\nupdates: []\n');
  const again = spawnSync(
    process.execPath,
    [join(pkg, 'tools/bin/tailgate.js'), 'init', '--controller', 'traefik', '--dir', other],
    { cwd: repo, encoding: 'utf8' },
  );
  assert.equal(again.status, 0, again.stderr);
  assert.match(
    again.stdout,
    /dependabot\.yml: kept \(exists; add a package-ecosystem: github-actions entry with directory: \//,
  );
  assert.equal(readFileSync(join(other, '.github', 'dependabot.yml'), 'utf8'), 'version: 2\nupdates: []\n');
  const zizmor = which('zizmor');
  assert.ok(zizmor, 'zizmor not found: make setup installs it into .tools/bin');
  // The default policy and persona, no config: what an adopter's own zizmor run sees.
  const z = spawnSync(zizmor, ['--offline', '--no-progress', join(repo, '.github')], { encoding: 'utf8', cwd: repo });
  assert.equal(z.status, 0, `${z.stdout}${z.stderr}`);
  assert.match(z.stdout + z.stderr, /No findings to report/);
});

test("init's nightly caller says what guards the machine; dispatch's how its baseline PR gets its checks", () => {
  const dir = scratchDir('tg-pin-guard-');
  const r = spawnSync(
    process.execPath,
    [join(ROOT, 'tools/bin/tailgate.js'), 'init', '--dir', dir, '--with', 'dispatch,nightly'],
    {
      encoding: 'utf8',
    },
  );
  assert.equal(r.status, 0, r.stderr);
  const nightly = readFileSync(join(dir, '.github', 'workflows', 'tailgate-nightly.yml'), 'utf8');
  assert.match(
    nightly,
    /Run workflow on another\n\s+# branch is refused before anything is set up there \(allow-other-branches: true lets/,
  );
  assert.match(
    nightly,
    /GitHub creates the environment unprotected: Settings → Environments →\n\s+# tailgate-bench → Required reviewers makes every run, the nightly ones too, wait for/,
  );
  assert.match(
    r.stdout,
    /^nightly: .*GitHub creates the tailgate-bench environment unprotected — Settings → Environments → tailgate-bench → Required reviewers/m,
  );
  const dispatch = parse(readFileSync(join(dir, '.github', 'workflows', 'tailgate-dispatch.yml'), 'utf8'));
  assert.deepEqual(dispatch.jobs.dispatch.secrets, {
    'baseline-pr-token': '${{ secrets.TAILGATE_BASELINE_PR_TOKEN }}',
    'baseline-pr-app-key': '${{ secrets.TAILGATE_APP_KEY }}',
  });
  assert.equal(dispatch.jobs.dispatch.with['baseline-pr-app-id'], '${{ vars.TAILGATE_APP_ID }}');
  const called = parse(readFileSync(join(ROOT, '.github', 'workflows', 'dispatch.yml'), 'utf8')).on.workflow_call;
  for (const k of Object.keys(dispatch.jobs.dispatch.secrets))
    assert.ok(called.secrets[k], `dispatch.yml takes the secret ${k}`);
});
