// Issue 68's papercut "messages link docs/duet.md and docs/workflows.md, which the package
// does not ship", as a class: a message that names one of tailgate's docs names a page
// that exists, and from an installed package (no docs/ in package.json `files`) it names
// it where the reader can open it — the page on GitHub at the package's release commit,
// else the tag its `uses:` lines call (install.js hint(), which every error and --help
// goes through). In tailgate's checkout the path stays a path.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { docsUrl, hint } from '../../src/install.js';
import { scratchDir } from '../helpers/scratch.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const DOC = /\bdocs\/([a-z0-9-]+\.md)/g;

function filesUnder(dir) {
  return readdirSync(dir).flatMap((e) => {
    const p = join(dir, e);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

test('doc links: every docs/<page>.md the shipped code, scripts and schemas name exists', () => {
  const shipped = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).files;
  assert.ok(!shipped.some((f) => f.startsWith('docs')), 'the package ships no docs/: messages must link them');
  const named = new Map();
  for (const top of ['tools/src', 'tools/ci', 'tools/scripts', 'schemas', 'k6'])
    for (const f of filesUnder(join(REPO, top)))
      if (/\.(js|cjs|sh|json)$/.test(f))
        for (const [, page] of readFileSync(f, 'utf8').matchAll(DOC)) named.set(page, f.slice(REPO.length));
  assert.ok(named.size >= 5, [...named.keys()].join(', '));
  for (const [page, where] of named)
    assert.ok(existsSync(join(REPO, 'docs', page)), `${where} names docs/${page}, which does not exist`);
});

test("doc links: from a package, a hint's docs/<page>.md is the page on GitHub at the package's commit or tag; from the checkout, a path", () => {
  // A package as npm installs it: its package.json, and release.json where the release packed it.
  const pkg = scratchDir('tg-doc-links-pkg-');
  writeFileSync(join(pkg, 'package.json'), readFileSync(join(REPO, 'package.json')));
  assert.equal(docsUrl('duet.md', pkg), 'https://github.com/tailgate-dev/tailgate/blob/v0/docs/duet.md');
  const { version } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));
  writeFileSync(join(pkg, 'release.json'), JSON.stringify({ tag: `v${version}`, commit: 'a'.repeat(40) }));
  assert.equal(docsUrl('gate.md', pkg), `https://github.com/tailgate-dev/tailgate/blob/${'a'.repeat(40)}/docs/gate.md`);
  // hint() names this package's pages (a release.json a pack left here names its commit).
  const at = (page) =>
    `https://github\\.com/tailgate-dev/tailgate/blob/(v0|[0-9a-f]{40})/docs/${page.replace('.', '\\.')}`;
  assert.match(
    hint('raise maxRate after measuring (docs/duet.md); see docs/workflows.md#several-gates', false),
    new RegExp(`^raise maxRate after measuring \\(${at('duet.md')}\\); see ${at('workflows.md')}#several-gates$`),
  );
  assert.match(
    hint("tailgate's docs/adopting.md, Baselines", false),
    new RegExp(`^tailgate's ${at('adopting.md')}, Baselines$`),
  );
  assert.equal(hint('see docs/duet.md', true), 'see docs/duet.md');
  // A URL already whole, or another repository's docs/ path, is left alone.
  const whole = 'https://example.com/x/docs/duet.md';
  assert.equal(hint(whole, false), whole);
});

// A package as npm installs it in an adopter's repository (adopter-hints.test.js's shape).
function installed() {
  const repo = scratchDir('tg-doc-links-');
  const pkg = join(repo, 'node_modules', 'tailgate');
  const { files } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));
  // release.json is the release's to write (a packed release names its commit).
  for (const p of ['package.json', ...files].filter((f) => f !== 'release.json' && existsSync(join(REPO, f))))
    cpSync(join(REPO, p), join(pkg, p), { recursive: true });
  symlinkSync(join(REPO, 'node_modules'), join(pkg, 'node_modules'));
  return {
    repo,
    run: (...args) =>
      spawnSync(process.execPath, [join(pkg, 'tools/bin/tailgate.js'), ...args], { cwd: repo, encoding: 'utf8' }),
  };
}

test('doc links: installed in a repository, --help and a refusal link the page, never a docs/ path the package lacks', () => {
  const { repo, run } = installed();
  for (const args of [
    ['setup', '--help'],
    ['run', '--help'],
    ['migrate', '--help'],
  ]) {
    const r = run(...args);
    assert.equal(r.status, 0, r.stderr);
    assert.doesNotMatch(r.stdout, /(^|[\s(])docs\/[a-z-]+\.md/m, `${args.join(' ')}:\n${r.stdout}`);
    assert.match(
      r.stdout,
      /https:\/\/github\.com\/tailgate-dev\/tailgate\/blob\/v0\/docs\/[a-z-]+\.md/,
      args.join(' '),
    );
  }
  writeFileSync(
    join(repo, 'bench.yaml'),
    `apiVersion: tailgate/v1
kind: Bench
profiles:
  small: { runner: ubuntu-24.04, maxRate: 100 }
controllers:
  nginx-dynamic: { type: local, variant: nginx-dynamic }
scenarios:
  steady: { script: steady, rate: 500, duration: 5s }
matrices:
  local: { target: local, profile: small, controllers: [nginx-dynamic], scenarios: [steady] }
`,
  );
  const init = run('init', '--dir', 'adopted', '--with', 'dispatch,nightly');
  assert.equal(init.status, 0, init.stdout + init.stderr);
  const again = run('init', '--dir', 'adopted', '--with', 'dispatch');
  for (const out of [init.stdout, again.stdout]) {
    assert.doesNotMatch(out, /(^|[\s(])docs\/[a-z-]+\.md/m, out);
    assert.match(out, /https:\/\/github\.com\/tailgate-dev\/tailgate\/blob\/[^/]+\/docs\/(adopting|workflows)\.md/);
  }
  const v = run('validate');
  assert.equal(v.status, 2, v.stdout + v.stderr);
  assert.match(
    v.stderr,
    /raise maxRate after measuring \(https:\/\/github\.com\/tailgate-dev\/tailgate\/blob\/v0\/docs\/duet\.md\)/,
  );
});
