// A newcomer's slips get the CLI's words and the fix (issue 53): a mistyped flag or
// command names the one meant.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.js';
import { closest } from '../../src/cli/main.js';

test('a mistyped flag names the flag meant, exit 2', async () => {
  const r = await runCli(['validate', '--cofig', 'bench.yaml']);
  assert.equal(r.code, 2);
  assert.match(r.out, /unknown flag --cofig — did you mean --config\?/);
  const far = await runCli(['validate', '--xyzzy']);
  assert.equal(far.code, 2);
  assert.match(far.out, /unknown flag --xyzzy \(the flags are below\)/);
});

test('a mistyped command names the command meant', async () => {
  const r = await runCli(['comapre']);
  assert.equal(r.code, 2);
  assert.match(r.out, /unknown command "comapre" — did you mean "compare"\?/);
  assert.equal(closest('gaet', ['gate', 'plan']), 'gate');
  assert.equal(closest('zz', ['gate', 'plan']), null);
});

test('gate on a folder with no results names the layout it reads', async () => {
  const { scratchDir } = await import('../helpers/scratch.js');
  const out = scratchDir('tg-mistake-gate-');
  const r = await runCli(['gate', '--mode', 'paired', '--results', `${out}/none`, '--out', `${out}/g`]);
  assert.equal(r.code, 4, r.out);
  assert.match(
    r.out,
    /no results arrived .*Expected <results>\/base\/… and <results>\/head\/…, each <controller>\/<tuning>\/<scenario>\/rep-<n>\/result\.json/,
  );
});
