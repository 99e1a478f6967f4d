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

test("ingest of another tool's output says whose it is and the flag that reads it", async () => {
  const { scratchDir } = await import('../helpers/scratch.js');
  const { writeFileSync } = await import('node:fs');
  const { durationLine, metricLine } = await import('../helpers/k6-lines.js');
  const dir = scratchDir('tg-mistake-ingest-');
  const k6 = `${dir}/k6.json`;
  writeFileSync(k6, `${metricLine('http_req_duration')}\n${durationLine({ ts: Date.now(), ms: 3 })}\n`);
  const r = await runCli(['ingest', k6, '--format', 'vegeta', '--out', `${dir}/r.json`]);
  assert.equal(r.code, 2, r.out);
  assert.match(r.out, /this is k6's --out json \(\.gz\) output, not vegeta .*: ingest it with --format k6/);
  const fortio = `${dir}/fortio.json`;
  writeFileSync(fortio, JSON.stringify({ RunType: 'HTTP', DurationHistogram: { Count: 1, Data: [] } }));
  const f = await runCli(['ingest', fortio, '--out', `${dir}/f.json`]);
  assert.equal(f.code, 2, f.out);
  assert.match(f.out, /this is fortio load -json output, not k6's .*: ingest it with --format fortio/);
});
