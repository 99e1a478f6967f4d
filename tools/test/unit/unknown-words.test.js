// Issue 67, item 6 — unknown words are unknown commands: the CLI looked commands up in a
// plain object, so a word every JavaScript object answers to (constructor, toString,
// __proto__, hasOwnProperty…) was a "command": it crashed with a stack trace and the
// infrastructure exit code, and with --help printed "undefined" and exited 0. Every
// word the user types is looked up among the names the CLI defines, and nothing else.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.js';

// Every name Object.prototype answers to, and a few more a plain object or a module has.
const WORDS = [...Object.getOwnPropertyNames(Object.prototype), 'prototype', 'then', 'default'];

const refused = (r, word, what = 'command') => {
  assert.equal(r.code, 2, `${word}: exit ${r.code}\n${r.out}`);
  assert.match(r.out, new RegExp(`unknown ${what} "${word.replace(/[$_]/g, '\\$&')}"`), r.out);
  assert.doesNotMatch(r.out, /internal error|\n\s+at |undefined/, r.out);
};

test('unknown words: a word every object answers to is an unknown command, exit 2, no stack trace', async () => {
  for (const word of WORDS) {
    refused(await runCli([word]), word);
    refused(await runCli([word, '--help']), word);
    refused(await runCli(['--no-color', word, '--config', 'x']), word);
  }
});

test("unknown words: `help <word>` for a word that is no command is the same error; a command's help still prints", async () => {
  for (const word of [...WORDS, 'bogus']) refused(await runCli(['help', word]), word);
  const near = await runCli(['help', 'valdiate']);
  assert.equal(near.code, 2);
  assert.match(near.out, /unknown command "valdiate" — did you mean "validate"\?/);
  const ok = await runCli(['help', 'validate']);
  assert.equal(ok.code, 0);
  assert.match(ok.out, /^Usage: tailgate validate/m);
  const bare = await runCli(['help']);
  assert.equal(bare.code, 0);
  assert.match(bare.out, /^Commands:/m);
});

test('unknown words: the nearest command is suggested, and every command is listed', async () => {
  const r = await runCli(['constructr']);
  assert.equal(r.code, 2);
  assert.match(r.out, /expected one of: doctor, validate, .*, completion/);
  const near = await runCli(['valueOff']);
  assert.doesNotMatch(near.out, /did you mean "valueOf"/, 'only real commands are suggested');
});

// The same class one level down: a subcommand, an option's value picked from a list.
test('unknown words: subcommands and named option values refuse such words too (exit 2, named)', async () => {
  for (const word of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
    const cases = [
      ['history', word],
      ['completion', word],
      ['setup', '--check', '--target', word],
      ['init', '--controller', word, '--dir', '/nonexistent/tg-unknown-words'],
      ['init', '--with', word, '--dir', '/nonexistent/tg-unknown-words'],
      ['gate', '--mode', word, '--results', '/nonexistent'],
      ['history', 'detect', '--metrics', word, '--store', '/nonexistent'],
      ['run', '--dry-run', '--engine', word],
      ['ingest', '--format', word, '--out', '/nonexistent/r.json', '/nonexistent/in.json'],
    ];
    for (const argv of cases) {
      const r = await runCli(argv);
      assert.equal(r.code, 2, `${argv.join(' ')}: exit ${r.code}\n${r.out}`);
      assert.match(r.out, new RegExp(word.replace(/[$_]/g, '\\$&')), `${argv.join(' ')} names the word\n${r.out}`);
      assert.doesNotMatch(r.out, /internal error|\n\s+at /, `${argv.join(' ')}\n${r.out}`);
    }
  }
});

// A word after a command that takes none was dropped: `validate perf.yaml` validated
// bench.yaml and said "valid".
test('unknown words: a command that takes no arguments refuses a word after it instead of ignoring it', async () => {
  for (const argv of [
    ['doctor', 'constructor'],
    ['validate', 'perf.yaml'],
  ]) {
    const r = await runCli(argv);
    assert.equal(r.code, 2, `${argv.join(' ')}: exit ${r.code}\n${r.out}`);
    assert.match(r.out, new RegExp(`tailgate ${argv[0]}: ${argv[0]} takes no positional arguments`));
  }
  assert.match((await runCli(['validate', 'perf.yaml'])).out, /--config "perf\.yaml" names a config/);
});
