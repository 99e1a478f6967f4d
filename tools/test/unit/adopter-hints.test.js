// Issue 62, item 3: the hints an adopter reads speak to their repository, not to
// tailgate's checkout — `npx tailgate …` where the checkout says `make …`, the schema
// where the package keeps it, how to get a bench.yaml when there is none, the key meant
// for a misspelt one, and a bad value reported once.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { fromCheckout, hint, packagePath, schemaRef } from '../../src/install.js';
import { runCli } from '../helpers/cli.js';
import { scratchDir } from '../helpers/scratch.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));

const bench = (scenario) => `apiVersion: tailgate/v1
kind: Bench
controllers:
  nginx-dynamic: { type: local, variant: nginx-dynamic }
scenarios:
  steady: { script: steady, rate: 100, ${scenario} }
matrices:
  local: { target: local, controllers: [nginx-dynamic], scenarios: [steady] }
`;

function validate(text) {
  const file = join(scratchDir('tg-hints-'), 'bench.yaml');
  writeFileSync(file, text);
  return runCli(['validate', '--config', file]);
}

// A package as npm installs it into an adopter's repository: the package's own files
// (package.json `files`: no Makefile) under <repo>/node_modules/tailgate, its dependencies
// (this checkout's) inside it.
function adopterRepo() {
  const repo = scratchDir('tg-adopter-');
  const pkg = join(repo, 'node_modules', 'tailgate');
  for (const p of ['package.json', 'tools/bin', 'tools/src', 'tools/versions.json', 'schemas', 'charts'])
    cpSync(join(REPO, p), join(pkg, p), { recursive: true });
  symlinkSync(join(REPO, 'node_modules'), join(pkg, 'node_modules'));
  return { repo, pkg };
}

const tailgateIn = ({ repo, pkg }, args) => {
  const r = spawnSync(process.execPath, [join(pkg, 'tools/bin/tailgate.js'), ...args], { cwd: repo, encoding: 'utf8' });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
};

test('a missing bench.yaml says run `npx tailgate init` or pass --config, not ENOENT; exit 2', async () => {
  const r = await runCli(['validate', '--config', join(scratchDir('tg-hints-'), 'bench.yaml')]);
  assert.equal(r.code, 2);
  assert.match(
    r.out,
    /bench\.yaml: cannot read bench config: no such file — run `npx tailgate init` to write one, or pass --config <file>/,
  );
  assert.doesNotMatch(r.out, /ENOENT/);
  const plan = await runCli(['plan', '--matrix', 'local', '--config', join(scratchDir('tg-hints-'), 'none.yaml')]);
  assert.equal(plan.code, 2);
  assert.match(plan.out, /npx tailgate init/);
});

test('an unknown bench.yaml key names the nearest valid key of that place; a far one only the schema', async () => {
  const near = await validate(bench('duraton: 20s'));
  assert.equal(near.code, 2);
  assert.match(
    near.out,
    /scenarios\.steady\.duraton: unknown field — did you mean "duration"\? \(see schemas\/bench\.schema\.json\)/,
  );
  const far = await validate(bench('zzzzzz: 1'));
  assert.match(
    far.out,
    /scenarios\.steady\.zzzzzz: unknown field \(check spelling; see schemas\/bench\.schema\.json\)/,
  );
});

test('a bare duration 30 is reported once, in words, not again as 0.03s or the repetitions it would need', async () => {
  const r = await validate(bench('duration: 30'));
  assert.equal(r.code, 2);
  assert.match(r.out, /1 problem in bench config/);
  assert.match(r.out, /scenarios\.steady\.duration: must be a duration like 30s, .* not 30$/m);
  assert.doesNotMatch(r.out, /0\.03s|samples per side|must be string/);
});

test('duration 0s is reported once (must be at least 1s), never as "repetitions Infinity"', async () => {
  const r = await validate(bench('duration: 0s'));
  assert.match(r.out, /1 problem in bench config/);
  assert.match(r.out, /scenarios\.steady\.duration: must be at least 1s/);
  assert.doesNotMatch(r.out, /Infinity/);
});

test('a valid but short duration still gets the samples rule (only a failed source silences it)', async () => {
  const r = await validate(bench('duration: 1s'));
  assert.equal(r.code, 2);
  assert.match(r.out, /p99 is blocking but scenario "steady" gives 100\/s × 1s × 1 repetition = 100 samples per side/);
});

test('from a package install, `make setup`/`make doctor`/`make bench` hints are `npx tailgate …`; the checkout keeps make', () => {
  const text =
    'k6 not found: run `make setup` (installs the pinned k6); then make doctor, make bench; make p99 advisory';
  assert.equal(
    hint(text, false),
    'k6 not found: run `npx tailgate setup` (installs the pinned k6); then npx tailgate doctor, npx tailgate run --matrix local; make p99 advisory',
  );
  assert.equal(hint(text, true), text);
  assert.equal(fromCheckout(), true, "this checkout has tailgate's Makefile");
  assert.equal(fromCheckout(scratchDir('tg-pkg-')), false);
});

test("from a package install, the schema is named where the package keeps it, relative to the reader's folder", () => {
  const root = '/repo/node_modules/tailgate';
  const file = 'schemas/bench.schema.json';
  assert.equal(
    packagePath(file, { from: '/repo', root, checkout: false }),
    'node_modules/tailgate/schemas/bench.schema.json',
  );
  assert.equal(
    packagePath(file, { from: '/repo/sub', root, checkout: false }),
    '../node_modules/tailgate/schemas/bench.schema.json',
  );
  // npx's cache: nowhere near the repository, so the whole path.
  const cache = '/home/u/.npm/_npx/1a2b/node_modules/tailgate';
  assert.equal(packagePath(file, { from: '/repo', root: cache, checkout: false }), `${cache}/${file}`);
  assert.equal(packagePath(file, { from: '/anywhere', root, checkout: true }), file);
});

test("init's $schema is where the package is installed relative to bench.yaml, else where an install puts it", () => {
  const root = '/repo/node_modules/tailgate';
  assert.equal(schemaRef('/repo', root), './node_modules/tailgate/schemas/bench.schema.json');
  assert.equal(schemaRef('/repo/perf/gates', root), '../../node_modules/tailgate/schemas/bench.schema.json');
  // Run through npx's cache or from a checkout: never a path of this machine in a committed file.
  assert.equal(
    schemaRef('/repo', '/home/u/.npm/_npx/1a2b/node_modules/tailgate'),
    './node_modules/tailgate/schemas/bench.schema.json',
  );
  assert.equal(schemaRef('/repo', REPO), './node_modules/tailgate/schemas/bench.schema.json');
});

test('installed in a repository: validate names node_modules/tailgate/schemas/… and the missing bench.yaml hint', () => {
  const adopter = adopterRepo();
  const missing = tailgateIn(adopter, ['validate']);
  assert.equal(missing.code, 2, missing.out);
  assert.match(missing.out, /run `npx tailgate init` to write one, or pass --config/);
  writeFileSync(join(adopter.repo, 'bench.yaml'), bench('duraton: 20s'));
  const typo = tailgateIn(adopter, ['validate']);
  assert.equal(typo.code, 2, typo.out);
  assert.match(typo.out, /did you mean "duration"\? \(see node_modules\/tailgate\/schemas\/bench\.schema\.json\)/);
});

test('installed in a repository: an error that names `make setup` reaches the user as `npx tailgate setup`', async () => {
  const { pkg } = adopterRepo();
  const { commandFailed } = await import(pathToFileURL(join(pkg, 'tools/src/cli/main.js')));
  const { InfraError } = await import(pathToFileURL(join(pkg, 'tools/src/errors.js')));
  const lines = [];
  const code = commandFailed(
    'run',
    new InfraError('k6 not found: run `make setup`', { details: ['or make setup'] }),
    (l) => lines.push(l),
  );
  assert.equal(code, 4);
  assert.deepEqual(lines, ['tailgate run: k6 not found: run `npx tailgate setup`', '  or npx tailgate setup']);
});

// Quiet: what a command printed, from the package copy's own modules.
async function printed(fn) {
  const lines = [];
  const saved = [console.log, console.error];
  console.log = console.error = (...a) => lines.push(a.join(' '));
  try {
    return { code: await fn(), out: lines.join('\n') };
  } finally {
    [console.log, console.error] = saved;
  }
}

test('installed in a repository: doctor and setup --check, with nothing installed, say `npx tailgate setup`, never make', async () => {
  const { pkg } = adopterRepo();
  const load = (f) => import(pathToFileURL(join(pkg, 'tools/src/cli', f)));
  const none = (d) => ({ ...d, path: null, version: null, ok: false });
  const doctor = await printed(async () => (await load('doctor.js')).run({}, [], { probeDep: none }));
  assert.equal(doctor.code, 4);
  assert.match(
    doctor.out,
    /The local target cannot run: nginx, haproxy, a load engine \(k6 or vegeta\) \(see above\)\. Run: npx tailgate setup/,
  );
  assert.doesNotMatch(doctor.out, /\bmake (setup|doctor|bench)\b/);
  const setup = await printed(async () =>
    (await load('setup.js')).run({ target: 'kind', check: true }, [], { probeDep: none }),
  );
  assert.equal(setup.code, 4);
  assert.match(setup.out, /\(see npx tailgate setup --target kind\)/);
  assert.doesNotMatch(setup.out, /\bmake (setup|doctor|bench)\b/);
});

test("installed in a repository: init's bench.yaml names the package's schema relative to itself", () => {
  const adopter = adopterRepo();
  const top = tailgateIn(adopter, ['init']);
  assert.equal(top.code, 0, top.out);
  const first = (dir) => readFileSync(join(dir, 'bench.yaml'), 'utf8').split('\n')[0];
  assert.equal(
    first(adopter.repo),
    '# yaml-language-server: $schema=./node_modules/tailgate/schemas/bench.schema.json',
  );
  assert.ok(existsSync(join(adopter.repo, 'node_modules/tailgate/schemas/bench.schema.json')));
  const sub = join(adopter.repo, 'perf');
  mkdirSync(sub);
  assert.equal(tailgateIn(adopter, ['init', '--dir', 'perf']).code, 0);
  assert.equal(first(sub), '# yaml-language-server: $schema=../node_modules/tailgate/schemas/bench.schema.json');
});
