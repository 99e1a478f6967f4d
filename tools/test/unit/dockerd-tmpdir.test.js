// A dockerd started inside a test run's TMPDIR outlives that folder; every kind node then
// fails at its console socket (CI's three failing kind cases). A kind run makes the folder
// again (targets/kube/dockerd-tmpdir.js); here against a /proc laid out by the test.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { daemonTmpdirs, repairDaemonTmpdirs } from '../../src/targets/kube/dockerd-tmpdir.js';
import { scratchDir } from '../helpers/scratch.js';

function fakeProc(root, procs) {
  for (const [pid, comm, env] of procs) {
    mkdirSync(join(root, String(pid)), { recursive: true });
    writeFileSync(join(root, String(pid), 'comm'), `${comm}\n`);
    writeFileSync(join(root, String(pid), 'environ'), `${env.join('\0')}\0`);
  }
}

test('dockerd-tmpdir: a daemon whose TMPDIR is gone is found, and the folder made again', (t) => {
  const root = scratchDir('proc-');
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const gone = join(root, 'scratch', 'tailgate-test.Ab12Cd');
  const there = join(root, 'scratch-there');
  mkdirSync(there);
  fakeProc(join(root, 'proc'), [
    [17400, 'dockerd', ['PATH=/usr/bin', `TMPDIR=${gone}`]],
    [17418, 'containerd', [`TMPDIR=${gone}`]],
    [17500, 'dockerd', [`TMPDIR=${there}`]],
    [17600, 'bash', [`TMPDIR=${join(root, 'other-gone')}`]], // not a daemon: left alone
    [17700, 'dockerd', ['PATH=/usr/bin']], // no TMPDIR: os default, nothing to make
  ]);
  mkdirSync(join(root, 'proc', 'self')); // not a pid
  const proc = join(root, 'proc');
  const found = daemonTmpdirs({ proc }).sort((a, b) => a.pid - b.pid);
  assert.deepEqual(
    found.map((d) => [d.pid, d.name, d.exists]),
    [
      [17400, 'dockerd', false],
      [17418, 'containerd', false],
      [17500, 'dockerd', true],
    ],
  );
  const lines = repairDaemonTmpdirs({ proc });
  assert.deepEqual(lines, [`dockerd's TMPDIR ${gone} was gone (kind nodes cannot start without it): made it again`]);
  assert.ok(existsSync(gone));
  assert.ok(!existsSync(join(root, 'other-gone')));
  assert.deepEqual(repairDaemonTmpdirs({ proc }), [], 'nothing left to repair');
});

test('dockerd-tmpdir: a TMPDIR that is not a plain absolute path is never made', (t) => {
  const root = scratchDir('proc-');
  t.after(() => rmSync(root, { recursive: true, force: true }));
  fakeProc(root, [
    [1, 'dockerd', [`TMPDIR=${root}/a/../b`]],
    [2, 'dockerd', ['TMPDIR=relative/dir']],
    [3, 'containerd', [`TMPDIR=${join(root, 'sp ace')}`]],
  ]);
  const lines = repairDaemonTmpdirs({ proc: root });
  assert.equal(lines.length, 3);
  for (const l of lines)
    assert.match(l, /^! dockerd's TMPDIR is gone and is not a plain path: not made again; restart dockerd$/);
  assert.ok(!existsSync(join(root, 'b')) && !existsSync(join(root, 'sp ace')));
});

test('dockerd-tmpdir: no /proc (not Linux) is no daemon', () => {
  assert.deepEqual(daemonTmpdirs({ proc: '/nonexistent-proc' }), []);
});
