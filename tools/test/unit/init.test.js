// `tailgate init` writes a working adoption: bench.yaml names the controller's values file
// (the catalog's, copied beside it, so a PR has a value to change), `validate` accepts the
// output as it stands, examples/adopter is that output, and a second init overwrites nothing.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { runCli } from '../helpers/cli.js';
import { scratchDir } from '../helpers/scratch.js';
import { loadBench } from '../../src/config/load.js';
import { callerRef, githubRepository, packageSource } from '../../src/release-ref.js';
import { moveMajorTag } from '../../ci/release-github.js';
import { startRestStandin } from '../workflows/rest-standin.js';

const ROOT = new URL('../../../', import.meta.url).pathname;
const catalogValues = (c) => readFileSync(join(ROOT, 'charts', 'controllers', c, 'values.yaml'), 'utf8');

test('init writes the controller values file that bench.yaml names, relative to bench.yaml, and validate accepts it', async () => {
  const dir = scratchDir('tg-init-values-');
  const r = await runCli(['init', '--controller', 'haproxy-ingress', '--dir', dir]);
  assert.equal(r.code, 0, r.out);
  const values = readFileSync(join(dir, 'haproxy-ingress-values.yaml'), 'utf8');
  const [head, ...rest] = values.split('\n');
  assert.match(head, /^# tailgate's catalog values for chart haproxy-ingress \d+\.\d+\.\d+ .*edit them in a PR/);
  assert.equal(rest.join('\n'), catalogValues('haproxy-ingress'), 'the rest is the catalog entry as it is');
  assert.match(readFileSync(join(dir, 'bench.yaml'), 'utf8'), /\n {4}values: haproxy-ingress-values\.yaml /);
  // Resolved beside bench.yaml, not from the working directory.
  assert.equal(
    loadBench(join(dir, 'bench.yaml')).controllers['haproxy-ingress'].valuesFile,
    join(dir, 'haproxy-ingress-values.yaml'),
  );
  const v = await runCli(['validate', '--config', join(dir, 'bench.yaml')]);
  assert.equal(v.code, 0, v.out);
  assert.match(r.out, /haproxy-ingress-values\.yaml: written \(the catalog's values for chart haproxy-ingress /);
  assert.match(r.out, /2\. commit bench\.yaml, haproxy-ingress-values\.yaml and \.github\/ on a branch/);
  assert.match(r.out, /the next PR — change a value in haproxy-ingress-values\.yaml — is compared/);
});

test('init never overwrites: bench.yaml present → refused, nothing written; a values file of the adopter is kept', async () => {
  const dir = scratchDir('tg-init-again-');
  assert.equal((await runCli(['init', '--controller', 'traefik', '--dir', dir])).code, 0);
  writeFileSync(join(dir, 'traefik-values.yaml'), '# ours\n');
  const again = await runCli(['init', '--controller', 'traefik', '--dir', dir]);
  assert.equal(again.code, 2, again.out);
  assert.match(again.out, /bench\.yaml exists; tailgate init never overwrites/);
  assert.equal(readFileSync(join(dir, 'traefik-values.yaml'), 'utf8'), '# ours\n');
  const fresh = scratchDir('tg-init-kept-');
  writeFileSync(join(fresh, 'traefik-values.yaml'), catalogValues('traefik'));
  const r = await runCli(['init', '--controller', 'traefik', '--dir', fresh]);
  assert.equal(r.code, 0, r.out);
  assert.match(r.out, /traefik-values\.yaml: kept/);
  assert.equal(readFileSync(join(fresh, 'traefik-values.yaml'), 'utf8'), catalogValues('traefik'));
});

test('examples/adopter holds what init --controller traefik --with dispatch,nightly writes (bench.yaml, the values file, the workflows)', async () => {
  const dir = scratchDir('tg-init-example-');
  assert.equal((await runCli(['init', '--controller', 'traefik', '--with', 'dispatch,nightly', '--dir', dir])).code, 0);
  const example = join(ROOT, 'examples', 'adopter');
  const written = [
    'bench.yaml',
    'traefik-values.yaml',
    ...readdirSync(join(dir, '.github', 'workflows')).map((f) => join('.github', 'workflows', f)),
    join('.github', 'dependabot.yml'),
  ];
  for (const f of written)
    assert.equal(readFileSync(join(example, f), 'utf8'), readFileSync(join(dir, f), 'utf8'), `examples/adopter/${f}`);
});

// The `uses:` lines init writes must name what a release of this version publishes: the
// tag is derived here the way the release derives it — release.sh's move-major-tag step is
// release-github.js's moveMajorTag, run against the REST stand-in — and the repository
// from package.json read here, not through init's own helper.
async function tagTheReleaseMoves(version) {
  const api = await startRestStandin({ refs: [] });
  const saved = { ...process.env };
  Object.assign(process.env, { GITHUB_API_URL: api.url, GITHUB_REPOSITORY: 'o/r', GITHUB_TOKEN: 't' });
  try {
    await moveMajorTag(`v${version}`, 'a'.repeat(40));
    return api.state.refs.map((r) => r.ref.replace('refs/tags/', ''));
  } finally {
    process.env = saved;
    api.close();
  }
}

// The `uses:` lines (a release's commit carries its tag as the line's comment) and any
// second ref — which one pin never writes.
const callsIn = (text) => ({
  uses: [...text.matchAll(/^\s+uses: (\S+)(?: # \S+)?$/gm)].map((m) => m[1]),
  refs: [...text.matchAll(/^\s+tailgate-ref: (\S+)$/gm)].map((m) => m[1]),
  repos: [...text.matchAll(/^\s+tailgate-repository: (\S+)$/gm)].map((m) => m[1]),
});

test("init's workflows call package.json's repository at exactly the tag release.sh moves for package.json's version", async () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  assert.match(
    readFileSync(join(ROOT, 'tools', 'ci', 'release.sh'), 'utf8'),
    /move-major-tag\)\n\s+node tools\/ci\/release-github\.js move-major-tag "\$TAG"/,
    'release.sh moves the major tag through release-github.js',
  );
  const moved = await tagTheReleaseMoves(pkg.version);
  assert.equal(moved.length, 1, `a release of ${pkg.version} moves one tag: ${moved}`);
  const [tag] = moved;
  const repo = /github\.com\/([\w.-]+\/[\w.-]+?)(?:\.git)?$/.exec(pkg.repository.url)[1];
  const dir = scratchDir('tg-init-ref-');
  const r = await runCli(['init', '--controller', 'traefik', '--dir', dir]);
  assert.equal(r.code, 0, r.out);
  for (const f of ['tailgate.yml', 'tailgate-comment.yml']) {
    const text = readFileSync(join(dir, '.github', 'workflows', f), 'utf8');
    const { uses, refs, repos } = callsIn(text);
    assert.ok(uses.length > 0, f);
    for (const u of uses) assert.match(u, new RegExp(`^${repo}/\\.github/workflows/(gate|comment)\\.yml@${tag}$`), f);
    assert.deepEqual([refs, repos], [[], []], `${f}: one pin, no tailgate-ref or tailgate-repository`);
    assert.match(text, /To pin a commit, put its 40-hex SHA after each @/, `${f} says how to pin a SHA`);
    assert.match(text, /a tag each 0\.x release moves \(not a fixed commit\)/, `${f}: the tag is not called immutable`);
  }
  assert.match(r.out, new RegExp(`tailgate\\.yml: written \\(calls ${repo}@${tag}\\)`));
  // A checkout is no release: the moving tag, said in one line with how to pin a commit.
  assert.match(
    r.out,
    new RegExp(`^warning: .*call ${repo}@${tag}, which moves.*pin a commit: init --ref <40-hex sha>`, 'm'),
  );
  // README's install line and adoption text name the same tag (examples/adopter is init's
  // output, test above), and no install reads a path on the installer's disk.
  for (const f of ['README.md', 'docs/adopting.md']) {
    const text = readFileSync(join(ROOT, f), 'utf8');
    assert.ok(text.includes(`npm install --save-dev github:${repo}#${tag}`), `${f} installs ${repo}#${tag}`);
    assert.ok(text.includes(`${repo}/.github/workflows/gate.yml@${tag}`), `${f} names gate.yml@${tag}`);
  }
  for (const f of ['README.md', 'docs/adopting.md', 'docs/release.md', 'examples/adopter/README.md'])
    assert.doesNotMatch(
      readFileSync(join(ROOT, f), 'utf8'),
      /npm install[^\n]*(\.tgz|file:)/,
      `${f}: an install that travels`,
    );
  assert.equal(
    JSON.parse(readFileSync(join(ROOT, 'examples', 'adopter', 'package.json'), 'utf8')).devDependencies.tailgate,
    `github:${repo}#${tag}`,
  );
});

test('the ref scheme: v0 for 0.x, v1 for 1.x, a pre-release its own tag; repository forms npm accepts', () => {
  assert.equal(callerRef('0.1.0'), 'v0');
  assert.equal(callerRef('0.12.3'), 'v0');
  assert.equal(callerRef('1.4.2'), 'v1');
  assert.equal(callerRef('2.0.0-rc.1'), 'v2.0.0-rc.1');
  assert.throws(() => callerRef('next'), /not semver/);
  for (const form of [
    'https://github.com/o/r',
    'git+https://github.com/o/r.git',
    'git@github.com:o/r.git',
    'github:o/r',
    'o/r',
    { type: 'git', url: 'git+ssh://git@github.com/o/r.git' },
  ])
    assert.equal(githubRepository(form), 'o/r', JSON.stringify(form));
  assert.equal(githubRepository('https://gitlab.com/o/r'), null);
  assert.equal(githubRepository(undefined), null);
  // A package root other than this checkout's (an unpacked tarball of another version).
  const root = scratchDir('tg-init-pkg-');
  writeFileSync(join(root, 'package.json'), JSON.stringify({ version: '1.3.0', repository: 'github:fork/tg' }));
  assert.deepEqual(packageSource(root), { repository: 'fork/tg', ref: 'v1', version: '1.3.0', release: null });
  // A packed release names its tag's commit (release.sh pack); a stale or malformed file names none.
  const commit = 'c'.repeat(40);
  writeFileSync(join(root, 'release.json'), JSON.stringify({ tag: 'v1.3.0', commit }));
  assert.deepEqual(packageSource(root).release, { tag: 'v1.3.0', commit });
  for (const bad of [{ tag: 'v1.2.0', commit }, { tag: 'v1.3.0', commit: 'c'.repeat(12) }, 'not json']) {
    writeFileSync(join(root, 'release.json'), typeof bad === 'string' ? bad : JSON.stringify(bad));
    assert.equal(packageSource(root).release, null, JSON.stringify(bad));
  }
});

test('init --repository / --ref override where the workflows call tailgate; a value that is no repository or ref is refused before anything is written', async () => {
  const dir = scratchDir('tg-init-override-');
  const sha = '0123456789abcdef0123456789abcdef01234567';
  const r = await runCli(['init', '--dir', dir, '--repository', 'acme/tailgate', '--ref', sha]);
  assert.equal(r.code, 0, r.out);
  const { uses, refs, repos } = callsIn(readFileSync(join(dir, '.github', 'workflows', 'tailgate.yml'), 'utf8'));
  assert.ok(
    uses.every((u) => u === `acme/tailgate/.github/workflows/gate.yml@${sha}`),
    uses.join('\n'),
  );
  assert.deepEqual([refs, repos], [[], []]);
  assert.doesNotMatch(r.out, /^warning:/m, 'a commit is pinned: nothing to warn of');
  for (const [flag, value] of [
    ['--repository', 'https://github.com/acme/tailgate'],
    ['--repository', 'acme'],
    ['--ref', 'v0 # x'],
    ['--ref', '-v0'],
    // GitHub resolves a uses: commit by its full SHA only.
    ['--ref', 'abc1234'],
  ]) {
    const empty = scratchDir('tg-init-bad-');
    const bad = await runCli(['init', '--dir', empty, `${flag}=${value}`]);
    assert.equal(bad.code, 2, `${flag} ${value}: ${bad.out}`);
    assert.match(bad.out, new RegExp(`${flag}: "`));
    assert.deepEqual(readdirSync(empty), [], 'nothing written');
  }
});

// init --with dispatch,nightly: the other two uses as thin callers of tailgate's reusable
// dispatch.yml and nightly.yml — at the repository and tag a release of this version
// publishes, passing only inputs the called workflow declares, granting exactly what its
// jobs ask for.
const REUSABLE_DIR = join(ROOT, '.github', 'workflows');
function grantsNeeded(called) {
  const need = {};
  for (const job of Object.values(called.jobs))
    for (const [scope, level] of Object.entries(job.permissions ?? called.permissions ?? {}))
      if (need[scope] !== 'write') need[scope] = level;
  return Object.fromEntries(Object.entries(need).filter(([, v]) => v === 'write'));
}

test("init --with dispatch,nightly writes both callers: uses: lines that resolve to tailgate's reusable workflows, declared inputs only, the grants they need", async () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const repo = githubRepository(pkg.repository);
  const tag = callerRef(pkg.version);
  const dir = scratchDir('tg-init-with-');
  const r = await runCli(['init', '--controller', 'traefik', '--dir', dir, '--with', 'dispatch,nightly']);
  assert.equal(r.code, 0, r.out);
  const bench = loadBench(join(dir, 'bench.yaml'));
  assert.ok(bench.matrices.nightly, 'bench.yaml gets the nightly matrix');
  assert.equal(bench.matrices.nightly.profile, 'tailgate-bench');
  for (const [f, called] of [
    ['tailgate-dispatch.yml', 'dispatch.yml'],
    ['tailgate-nightly.yml', 'nightly.yml'],
  ]) {
    const text = readFileSync(join(dir, '.github', 'workflows', f), 'utf8');
    assert.match(r.out, new RegExp(`${f.replace('.', '\\.')}: written \\(calls ${repo}@${tag}\\)`));
    const { uses, refs, repos } = callsIn(text);
    assert.deepEqual(uses, [`${repo}/.github/workflows/${called}@${tag}`], f);
    assert.deepEqual([refs, repos], [[], []], `${f}: one pin`);
    const doc = parse(text);
    const target = parse(readFileSync(join(REUSABLE_DIR, called), 'utf8'));
    const inputs = target.on.workflow_call.inputs;
    const [job] = Object.values(doc.jobs);
    for (const k of Object.keys(job.with)) assert.ok(Object.hasOwn(inputs, k), `${f}: ${called} has no input "${k}"`);
    assert.deepEqual(job.permissions, grantsNeeded(target), `${f}: grants exactly what ${called}'s jobs ask for`);
    assert.deepEqual(doc.permissions, { contents: 'read' }, `${f}: read-only at the top`);
    assert.ok(!doc.on.pull_request && !doc.on.pull_request_target, `${f}: never from a pull request`);
  }
  // The manual run's form: every input dispatch.yml takes from a person, typed; the matrix
  // a choice of bench.yaml's matrices.
  const form = parse(readFileSync(join(dir, '.github', 'workflows', 'tailgate-dispatch.yml'), 'utf8')).on
    .workflow_dispatch.inputs;
  for (const k of [
    'matrix',
    'controllers',
    'tunings',
    'scenarios',
    'rate',
    'duration',
    'repetitions',
    'compare',
    'update-baselines',
  ])
    assert.ok(form[k]?.type, `tailgate-dispatch.yml: a typed ${k} input`);
  assert.deepEqual(form.matrix.options, Object.keys(bench.matrices));
  assert.equal(form.rate.type, 'number');
  assert.equal(form['update-baselines'].type, 'boolean');
  // The nightly: scheduled, on the self-hosted label bench.yaml's profile names.
  const nightly = parse(readFileSync(join(dir, '.github', 'workflows', 'tailgate-nightly.yml'), 'utf8'));
  assert.ok(nightly.on.schedule?.length, 'scheduled');
  const { with: w } = Object.values(nightly.jobs)[0];
  assert.deepEqual(JSON.parse(w['runs-on']), ['self-hosted', 'linux', bench.profiles['tailgate-bench'].runner]);
  assert.equal(w.matrix, 'nightly');
  // Without --with: neither caller, and bench.yaml has no nightly matrix.
  const plain = scratchDir('tg-init-plain-');
  assert.equal((await runCli(['init', '--dir', plain])).code, 0);
  assert.deepEqual(readdirSync(join(plain, '.github', 'workflows')).sort(), ['tailgate-comment.yml', 'tailgate.yml']);
  assert.equal(loadBench(join(plain, 'bench.yaml')).matrices.nightly, undefined);
});

test('init --with: a value that is not dispatch or nightly is refused (exit 2) naming the valid ones, before anything is written', async () => {
  for (const value of ['weekly', 'dispatch,nightlly', 'dispatch;rm']) {
    const empty = scratchDir('tg-init-with-bad-');
    const r = await runCli(['init', '--dir', empty, '--with', value]);
    assert.equal(r.code, 2, `${value}: ${r.out}`);
    assert.match(r.out, /--with: ".*" is not one of dispatch, nightly/);
    assert.deepEqual(readdirSync(empty), [], 'nothing written');
  }
  // Either alone is fine, and repeated or spaced names are the same.
  const one = scratchDir('tg-init-with-one-');
  assert.equal((await runCli(['init', '--dir', one, '--with', ' dispatch , dispatch'])).code, 0);
  assert.deepEqual(readdirSync(join(one, '.github', 'workflows')).sort(), [
    'tailgate-comment.yml',
    'tailgate-dispatch.yml',
    'tailgate.yml',
  ]);
});
