// The CLI's conventions: every command's --help ends with the one exit-code table
// (cli/exit-codes.js), which docs/cli.md carries too; `tailgate setup` says what a target
// needs and what is missing, with the exit codes the table names.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { COMMANDS } from '../../src/cli/main.js';
import { EXIT_CODES, EXIT_CODES_HELP } from '../../src/cli/exit-codes.js';
import * as setup from '../../src/cli/setup.js';
import { runCli } from '../helpers/cli.js';

const DOC = readFileSync(new URL('../../../docs/cli.md', import.meta.url), 'utf8');

test('every command --help prints the exit-code table; the top-level usage lists the codes', async () => {
  const top = await runCli(['--help']); // loads every command
  for (const [code] of EXIT_CODES) assert.match(top.out, new RegExp(`\\b${code} `), `top-level usage: ${code}`);
  const without = [];
  for (const name of Object.keys(COMMANDS)) {
    const r = await runCli([name, '--help']);
    assert.equal(r.code, 0, name);
    if (!r.out.endsWith(EXIT_CODES_HELP)) without.push(name);
  }
  assert.deepEqual(without, [], 'commands whose --help lacks the exit-code table');
});

test('docs/cli.md has the same exit codes as the table in code', () => {
  const rows = [...DOC.matchAll(/^\| (\d+) \| /gm)].map((m) => Number(m[1]));
  assert.deepEqual(
    rows,
    EXIT_CODES.map(([c]) => c),
  );
});

// `setup` run in process with the probe and the installers replaced: what it prints and
// returns, never an install on this machine.
async function setupRun(opts, { have = [], fails = null } = {}) {
  const ran = [];
  const probeDep = (d) =>
    have.includes(d.name)
      ? { ...d, path: `/bin/${d.name}`, version: 'v9', ok: true }
      : { ...d, path: null, version: null, ok: false };
  const exec = (script, args) => (
    ran.push([script.replace(/.*\/tools\//, 'tools/'), ...args]),
    script.endsWith(fails) ? 7 : 0
  );
  const lines = [];
  const saved = [console.log, console.error];
  console.log = console.error = (...a) => lines.push(a.join(' '));
  try {
    const code = await setup.run({ target: 'local', check: false, ...opts }, [], { probeDep, exec });
    return { code, ran, out: lines.join('\n') };
  } finally {
    [console.log, console.error] = saved;
  }
}

test("setup --check: lists the target's tools; 0 when all are there, 4 naming what is missing; installs nothing", async () => {
  const all = await setupRun({ check: true }, { have: ['k6', 'nginx', 'haproxy', 'gnuplot'] });
  assert.equal(all.code, 0, all.out);
  assert.deepEqual(all.ran, []);
  assert.match(all.out, /✓ nginx +v9 +\(\/bin\/nginx\)/);
  assert.match(all.out, /The local target can run/);
  const some = await setupRun({ check: true, target: 'kind' }, { have: ['k6', 'docker'] });
  assert.equal(some.code, 4);
  assert.match(some.out, /✗ kind +missing — go install sigs\.k8s\.io\/kind@/);
  assert.match(some.out, /missing kind, helm, kubectl \(see tailgate setup --target kind\)/);
});

test("setup: runs the package's installers for the target, in order, then checks; a failing one is exit 4", async () => {
  const local = await setupRun({}, { have: ['k6', 'nginx', 'haproxy', 'gnuplot'] });
  assert.equal(local.code, 0, local.out);
  assert.deepEqual(local.ran, [['tools/scripts/setup.sh', 'package']]);
  const kind = await setupRun({ target: 'kind' }, { have: ['k6', 'docker', 'kind', 'helm', 'kubectl'] });
  assert.deepEqual(kind.ran, [['tools/scripts/setup.sh', 'package'], ['tools/ci/install-kube-tools.sh']]);
  const broken = await setupRun({ target: 'kind' }, { fails: 'install-kube-tools.sh' });
  assert.equal(broken.code, 4);
  assert.match(broken.out, /install-kube-tools\.sh failed \(exit 7\)/);
  assert.equal((await runCli(['setup', '--target', 'cloud'])).code, 2);
  assert.match((await runCli(['setup', '--target', 'cloud'])).out, /--target: "cloud" is not one of local, kind/);
});
