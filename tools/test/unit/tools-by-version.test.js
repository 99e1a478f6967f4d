// Tools by version, probes bounded (issue 59, item 7): `setup --check` and `doctor` refuse
// a pinned tool found at another version, naming the pin and the version found; the binary
// probed is the one a later command runs; a version probe that ignores SIGTERM is killed
// (SIGKILL) after a short grace and named, never waited on. Fakes on PATH stand in for the
// tools (helpers/fake-tool.js's pattern, several at once).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { test } from 'node:test';
import * as doctor from '../../src/cli/doctor.js';
import * as setup from '../../src/cli/setup.js';
import { DEPENDENCIES, probe } from '../../src/exec/deps.js';
import { runSync } from '../../src/exec/run.js';
import { which } from '../../src/exec/tools.js';
import { PINS } from '../../src/version.js';
import { scratchDir } from '../helpers/scratch.js';

const dep = (name) => DEPENDENCIES.find((d) => d.name === name);
const say = (line) => `#!/bin/sh\necho "${line}"\n`;
const AT_PIN = {
  k6: say(`k6 ${PINS.k6} (commit/x, go1.24, linux/amd64)`),
  kind: say(`kind ${PINS.kind} go1.24 linux/amd64`),
  helm: say(`${PINS.helm}+gabc`),
  docker: say('28.0.1'),
  kubectl: say('Client Version: v1.33.1'),
  nginx: '#!/bin/sh\necho "nginx version: nginx/1.22.1" >&2\n',
  haproxy: say('HAProxy version 2.6.12'),
  gnuplot: say('gnuplot 5.4 patchlevel 4'),
};

// Each folder of fakes (name -> script, mode 0o644 for a non-executable file) goes on
// PATH, first folder first, for the time of use().
async function onPath(folders, use) {
  const dirs = folders.map((tools) => {
    const dir = scratchDir('tg-tools-');
    for (const [name, script] of Object.entries(tools))
      writeFileSync(join(dir, name), typeof script === 'string' ? script : script.text, {
        mode: script.mode ?? 0o755,
      });
    return dir;
  });
  const saved = process.env.PATH;
  process.env.PATH = [...dirs, saved].join(delimiter);
  try {
    return await use(dirs);
  } finally {
    process.env.PATH = saved;
  }
}

async function quiet(fn) {
  const lines = [];
  const saved = [console.log, console.error];
  console.log = console.error = (...a) => lines.push(a.join(' '));
  try {
    return { code: await fn(), out: lines.join('\n') };
  } finally {
    [console.log, console.error] = saved;
  }
}

const fast = (d) => probe(d, { timeoutMs: 400, graceMs: 300 });

test('tools by version: a helm on PATH at another version than the pin is refused, naming both', async () => {
  const fakes = { ...AT_PIN, helm: say('v3.9.0+gabc'), kind: say('kind v0.20.0 go1.24 linux/amd64') };
  await onPath([fakes], async ([dir]) => {
    const r = await quiet(() => setup.run({ target: 'kind', check: true }, [], { probeDep: fast }));
    assert.equal(r.code, 4, r.out);
    assert.match(r.out, new RegExp(`✗ helm +${join(dir, 'helm')} is v3\\.9\\.0, but tailgate pins ${PINS.helm}`));
    assert.match(r.out, new RegExp(`✗ kind +${join(dir, 'kind')} is v0\\.20\\.0, but tailgate pins ${PINS.kind}`));
    assert.match(r.out, /✓ k6 /);
    assert.match(r.out, /cannot run yet: refused as found \(not the pin, or not working\): kind, helm/);
  });
  await onPath([AT_PIN], async () => {
    const r = await quiet(() => setup.run({ target: 'kind', check: true }, [], { probeDep: fast }));
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, new RegExp(`✓ helm +${PINS.helm.replace(/\./g, '\\.')} `));
  });
});

test('tools by version: doctor refuses a k6 at another version than the pin; an absent k6 is not refused for its pin', async () => {
  await onPath([{ ...AT_PIN, k6: say('k6 v0.49.0 (commit/x)') }], async ([dir]) => {
    const r = await quiet(() => doctor.run({}, [], { probeDep: fast }));
    assert.equal(r.code, 4, r.out);
    assert.match(r.out, new RegExp(`✗ k6 +${join(dir, 'k6')} is v0\\.49\\.0, but tailgate pins ${PINS.k6}`));
    assert.match(r.out, /The local target cannot run: k6 \(see above\)/);
  });
  const absent = await probe({ ...dep('k6'), name: 'tg-absent-k6' });
  assert.deepEqual([absent.path, absent.ok, absent.problem], [null, false, undefined]);
});

test('tools by version: the binary probed is the one a later command runs, a non-executable file first on PATH skipped as the shell does', async () => {
  const stale = { helm: { text: say('v3.0.0'), mode: 0o644 } };
  await onPath([stale, { helm: AT_PIN.helm }], async ([, good]) => {
    const probed = await fast(dep('helm'));
    assert.equal(probed.path, join(good, 'helm'));
    assert.equal(probed.ok, true);
    assert.equal(which('helm'), probed.path);
    const shell = spawnSync('bash', ['-c', 'command -v helm'], { encoding: 'utf8' });
    assert.equal(shell.stdout.trim(), probed.path, 'the scripts tailgate runs find another helm');
    assert.match(runSync(['helm', 'version', '--short']).stdout, new RegExp(`^${PINS.helm}`));
  });
});

test('tools by version: a version probe that ignores SIGTERM is killed (SIGKILL) after a short grace and named', async () => {
  const pids = join(scratchDir('tg-stubborn-'), 'pids');
  // The shell and its child both ignore SIGTERM; the child holds the output open.
  const stubborn = `#!/bin/bash\ntrap '' TERM\nsleep 30 &\necho "$$ $!" > ${pids}\nwait\n`;
  await onPath([{ ...AT_PIN, helm: stubborn }], async () => {
    const started = Date.now();
    const r = await quiet(() => setup.run({ target: 'kind', check: true }, [], { probeDep: fast }));
    assert.ok(Date.now() - started < 5_000, `setup --check took ${Date.now() - started} ms`);
    assert.equal(r.code, 4, r.out);
    assert.match(
      r.out,
      /✗ helm +found at \S+ but not working: `helm version --short` did not answer within 0\.4 s: it ignored SIGTERM and was killed \(SIGKILL\) after 0\.3 s more/,
    );
  });
  for (const pid of readFileSync(pids, 'utf8').trim().split(' ').map(Number)) assert.ok(await gone(pid), `pid ${pid}`);
});

test('tools by version: a probe past its bound that stops on SIGTERM is said so', async () => {
  await onPath([{ helm: '#!/bin/sh\nexec sleep 30\n' }], async () => {
    const r = await fast(dep('helm'));
    assert.equal(r.ok, false);
    assert.match(r.problem, /did not answer within 0\.4 s: stopped with SIGTERM$/);
  });
});

// Gone, or a zombie about to be reaped by init: polled for a second.
async function gone(pid) {
  for (let i = 0; i < 20; i++) {
    const state = spawnSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' }).stdout.trim();
    if (!state || state.startsWith('Z')) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}
