// The conventions people type without reading (issue 62, item 6): `help <command>`,
// `version`, `--no-color` anywhere with NO_COLOR honoured (tailgate prints no colour),
// and `completion bash|zsh` made from the commands and flags the CLI parses.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { allCommands, COMMANDS } from '../../src/cli/main.js';
import { helpText } from '../../src/cli/exit-codes.js';
import { TAILGATE_VERSION } from '../../src/version.js';
import { runCli } from '../helpers/cli.js';
import { scratchDir } from '../helpers/scratch.js';

const CLI = new URL('../../bin/tailgate.js', import.meta.url).pathname;
const BENCH = new URL('../../../bench.yaml', import.meta.url).pathname;

test('`tailgate help <command>` prints what `<command> --help` does, exit 0; bare help is still the usage', async () => {
  for (const name of ['validate', 'run', 'history']) {
    const help = await runCli(['help', name]);
    const flag = await runCli([name, '--help']);
    assert.equal(help.code, 0);
    assert.equal(help.out, flag.out, name);
    assert.equal(help.out, helpText(COMMANDS[name]));
  }
  const bare = await runCli(['help']);
  assert.equal(bare.code, 0);
  assert.match(bare.out, /^tailgate — regression gates/);
  // `help <no command>` is that unknown command (issue 67: unknown-words.test.js).
  const nonsense = await runCli(['help', 'nonsense']);
  assert.equal(nonsense.code, 2);
  assert.match(nonsense.out, /unknown command "nonsense"/);
});

test('`tailgate version` and `--version` print the package version, one line, exit 0', async () => {
  for (const argv of [['version'], ['--version']]) {
    const r = await runCli(argv);
    assert.equal(r.code, 0);
    assert.equal(r.out, TAILGATE_VERSION);
  }
  assert.equal((await runCli(['version', 'extra'])).code, 2);
});

test('--no-color is accepted before or after any command and changes nothing; NO_COLOR set changes nothing', async () => {
  const plain = await runCli(['validate', '--config', BENCH]);
  assert.equal(plain.code, 0, plain.out);
  for (const argv of [
    ['validate', '--no-color', '--config', BENCH],
    ['--no-color', 'validate', '--config', BENCH],
  ])
    assert.deepEqual(await runCli(argv), plain, argv.join(' '));
  await allCommands();
  for (const name of Object.keys(COMMANDS)) {
    const r = await runCli([name, '--no-color', '--help']);
    assert.equal(r.code, 0, `${name} --no-color --help: ${r.out.slice(0, 200)}`);
  }
  assert.equal((await runCli(['--no-color', '--version'])).out, TAILGATE_VERSION);
  const env = spawnSync(process.execPath, [CLI, 'validate', '--config', BENCH], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  assert.equal(env.status, 0);
  assert.ok(!(env.stdout + env.stderr).includes('\u001b['), 'no escape sequence');
  assert.equal((await runCli(['validate', '--no-colour'])).code, 2, 'a misspelling is still a usage error');
  assert.match((await runCli(['validate', '--no-colour'])).out, /did you mean --no-color\?/);
});

test('completion bash: every command, and each command’s every flag, completes in a real bash', async () => {
  const r = spawnSync(process.execPath, [CLI, 'completion', 'bash'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const dir = scratchDir('tg-completion-');
  const script = join(dir, 'tailgate.bash');
  writeFileSync(script, r.stdout);
  // COMPREPLY for a command line whose last word is being typed.
  const complete = (...words) => {
    const b = spawnSync(
      'bash',
      [
        '-c',
        `source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); _tailgate; printf '%s\\n' "\${COMPREPLY[@]}"`,
        'x',
        script,
        ...words,
      ],
      { encoding: 'utf8', cwd: dir },
    );
    assert.equal(b.status, 0, b.stderr);
    return b.stdout.split('\n').filter(Boolean);
  };
  const commands = await allCommands();
  assert.deepEqual(complete('tailgate', ''), [
    ...commands.map(([n]) => n),
    'help',
    '--help',
    '--version',
    '--no-color',
  ]);
  const missing = [];
  for (const [name, cmd] of commands) {
    const offered = complete('tailgate', name, '--');
    for (const flag of ['help', 'no-color', ...Object.keys(cmd.options)])
      if (!offered.includes(`--${flag}`)) missing.push(`${name} --${flag}`);
  }
  assert.deepEqual(missing, []);
  assert.deepEqual(complete('tailgate', 'help', 'val'), ['validate']);
  assert.deepEqual(complete('tailgate', 'completion', ''), ['bash', 'zsh']);
  writeFileSync(join(dir, 'bench.yaml'), '');
  assert.deepEqual(complete('tailgate', 'validate', '--config', 'ben'), ['bench.yaml'], 'a value flag takes a file');
});

test('completion zsh: a #compdef script with every command (and its summary) and every flag', async () => {
  const r = await runCli(['completion', 'zsh']);
  assert.equal(r.code, 0);
  assert.match(r.out, /^#compdef tailgate\n/);
  for (const [name, cmd] of await allCommands()) {
    assert.ok(r.out.includes(`'${name}:${cmd.summary.replace(/:/g, '\\:').replace(/'/g, `'\\''`)}'`), name);
    const line = r.out.split('\n').find((l) => l.startsWith(`    ${name}) _arguments `));
    for (const flag of Object.keys(cmd.options)) assert.match(line, new RegExp(`'--${flag}[':]`), `${name} --${flag}`);
  }
  const zsh = spawnSync('zsh', ['-n'], { input: r.out, encoding: 'utf8' });
  if (!zsh.error) assert.equal(zsh.status, 0, zsh.stderr); // syntax, where zsh is installed
});

test('completion: an unknown shell is a usage error naming the two', async () => {
  const r = await runCli(['completion', 'fish']);
  assert.equal(r.code, 2);
  assert.match(r.out, /expected "completion bash" or "completion zsh"/);
});

test('docs/cli.md documents help, version, --no-color with NO_COLOR, and completion', () => {
  const doc = readFileSync(new URL('../../../docs/cli.md', import.meta.url), 'utf8');
  for (const s of ['tailgate help <command>', 'tailgate version', '--no-color', 'NO_COLOR', 'tailgate completion bash'])
    assert.ok(doc.includes(s), s);
});
