// Issue 68's papercut `--controller trafik` as a class: a value picked from a list — a
// controller, a use, a target, a mode, an engine, a format, a metric, a subcommand, a
// matrix or cell name — that is one slip from a valid one is answered with that one, as
// a mistyped command or flag already was (nearest.js: the same rule everywhere).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCli } from '../helpers/cli.js';
import { scratchDir } from '../helpers/scratch.js';

test('did you mean: every value picked from a list names the nearest valid one (exit 2)', async () => {
  const dir = scratchDir('tg-did-you-mean-');
  const cases = [
    [['init', '--controller', 'trafik', '--dir', dir], 'traefik'],
    [['init', '--with', 'dispach', '--dir', dir], 'dispatch'],
    [['setup', '--check', '--target', 'lokal'], 'local'],
    [['gate', '--mode', 'pared', '--results', dir], 'paired'],
    [['run', '--dry-run', '--engine', 'vegeat'], 'vegeta'],
    [['ingest', '--format', 'vegta', '--out', `${dir}/r.json`, `${dir}/in.json`], 'vegeta'],
    [['history', 'detect', '--metrics', 'p9', '--store', dir], 'p99'],
    [['history', 'apend'], 'append'],
    [['plan', '--matrix', 'lcal'], 'local'],
    [['plan', '--matrix', 'local', '--controllers', 'nginx-relaod'], 'nginx-reload'],
    [['plan', '--matrix', 'local', '--scenarios', 'stedy'], 'steady'],
    [['completion', 'bsh'], 'bash'],
  ];
  for (const [argv, meant] of cases) {
    const r = await runCli(argv);
    assert.equal(r.code, 2, `${argv.join(' ')}: exit ${r.code}\n${r.out}`);
    assert.match(r.out, new RegExp(`did you mean "${meant.replace('.', '\\.')}"\\?`), `${argv.join(' ')}\n${r.out}`);
  }
  // Far from every name: the list alone, no guess.
  const far = await runCli(['init', '--controller', 'zzzzzz', '--dir', dir]);
  assert.equal(far.code, 2);
  assert.doesNotMatch(far.out, /did you mean/);
  assert.match(far.out, /traefik/);
});
