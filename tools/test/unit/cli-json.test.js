// --json on the commands that give a verdict: stdout is one JSON document and nothing
// else (run as a real process, so what lands on which stream is what a pipe sees), the
// lines for people on stderr, the exit code the same as without --json.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { scratchDir } from '../helpers/scratch.js';

const ROOT = new URL('../../../', import.meta.url).pathname;
const RUNS = join(ROOT, 'tools/test/fixtures/runs');
const PAIRED = ['--paired', '--base-results', join(RUNS, 'base'), '--head-results', join(RUNS, 'head')];

function tailgate(args, cwd = scratchDir('tg-json-')) {
  const env = { ...process.env, GITHUB_OUTPUT: '', GITHUB_STEP_SUMMARY: '', TAILGATE_CONFIG: '' };
  delete env.TAILGATE_CONFIG;
  const r = spawnSync(process.execPath, [join(ROOT, 'tools/bin/tailgate.js'), ...args], { cwd, env, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, cwd };
}

// All of stdout is one document (JSON.parse of the whole stream, not of a line in it).
function only(r) {
  assert.doesNotThrow(() => JSON.parse(r.stdout), `stdout is not one JSON document:\n${r.stdout.slice(0, 400)}`);
  return JSON.parse(r.stdout);
}

test('compare --json: the verdict document alone on stdout, the table on stderr, exit unchanged', () => {
  const plain = tailgate(['compare', ...PAIRED]);
  const json = tailgate(['compare', ...PAIRED, '--json']);
  assert.equal(plain.code, 1);
  assert.equal(json.code, plain.code);
  const doc = only(json);
  assert.equal(doc.kind, 'tailgate.verdict');
  assert.equal(doc.overall, 'regression');
  assert.equal(doc.exitCode, 1);
  assert.match(json.stderr, /nginx-dynamic\/default\/churn +regression/);
  assert.match(plain.stdout, /nginx-dynamic\/default\/churn +regression/, 'without --json the table is on stdout');
  // Bad input: no document, nothing on stdout, the error named on stderr, exit 2.
  const bad = tailgate(['compare', '--json', '--baseline', '/nonexistent.json', '/nonexistent2.json']);
  assert.equal(bad.code, 2);
  assert.equal(bad.stdout, '');
  assert.match(bad.stderr, /nonexistent/);
});

// report draws charts only for result folders under the working directory: the gate
// runs in a scratch folder holding a copy of the fixture runs.
test('gate --json: verdict.json on stdout; the step output and table on stderr', () => {
  const cwd = scratchDir('tg-json-gate-');
  cpSync(RUNS, join(cwd, 'runs'), { recursive: true });
  const gate = (head, out) =>
    tailgate(
      ['gate', '--json', '--mode', 'paired', '--base-results', 'runs/base', '--results', head, '--out', out],
      cwd,
    );
  const r = gate('runs/head', 'out-reg');
  assert.equal(r.code, 1, r.stderr);
  assert.equal(only(r).overall, 'regression');
  assert.match(r.stderr, /^confirm=\{"include":\[\]\}$/m, 'the step output (no GITHUB_OUTPUT) goes to stderr');
  const pass = gate('runs/base', 'out-pass');
  assert.equal(pass.code, 0, pass.stderr);
  assert.equal(only(pass).overall, 'pass');
  const bad = tailgate(['gate', '--json', '--results', 'runs'], cwd);
  assert.equal(bad.code, 2);
  assert.equal(bad.stdout, '');
});

test('validate --json: {ok, errors: [{file, line, col, field, rule}]}; exit 0 / 2 as without it', () => {
  const ok = tailgate(['validate', '--json', '--config', join(ROOT, 'bench.yaml')]);
  assert.equal(ok.code, 0, ok.stderr);
  assert.deepEqual(only(ok), { ok: true, errors: [] });
  assert.match(ok.stderr, /valid — /);
  const dir = scratchDir('tg-json-cfg-');
  const file = join(dir, 'bench.yaml');
  writeFileSync(
    file,
    'apiVersion: tailgate/v1\nkind: Bench\ncontrollers:\n  a: { type: local, variant: nope }\nscenarios: {}\nmatrices: {}\nbogus: 1\n',
  );
  const bad = tailgate(['validate', '--json', '--config', file]);
  assert.equal(bad.code, 2);
  const doc = only(bad);
  assert.equal(doc.ok, false);
  const variant = doc.errors.find((e) => e.field === 'controllers.a.variant');
  assert.deepEqual(
    { ...variant, rule: undefined },
    { file, line: 4, col: 30, field: 'controllers.a.variant', rule: undefined },
  );
  assert.match(variant.rule, /must be one of/);
  assert.ok(
    doc.errors.some((e) => e.field === 'bogus' && /unknown field/.test(e.rule)),
    JSON.stringify(doc.errors),
  );
  assert.match(bad.stderr, /bench\.yaml:4:30: controllers\.a\.variant/, 'the lines for people, on stderr');
  const broken = join(dir, 'broken.yaml');
  writeFileSync(broken, 'controllers: [\n');
  const syntax = only(tailgate(['validate', '--json', '--config', broken]));
  assert.equal(syntax.ok, false);
  assert.match(syntax.errors[0].rule, /^YAML syntax/);
  const missing = tailgate(['validate', '--json', '--config', join(dir, 'none.yaml')]);
  assert.equal(missing.code, 2);
  assert.deepEqual(only(missing).errors, [
    {
      file: join(dir, 'none.yaml'),
      field: null,
      rule: 'cannot read bench config: no such file — run `npx tailgate init` to write one, or pass --config <file>',
    },
  ]);
});

test('migrate --json: bad input leaves stdout empty (no document), exit 2', () => {
  const r = tailgate(['migrate', '--json', '--matrix', 'local']);
  assert.equal(r.code, 2);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /--from, --to required/);
});
