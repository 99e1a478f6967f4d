// The process registry trusts only itself. Held out: a registry file owned by another
// user, in a shared world-writable state dir, naming a live process of that user —
// `tailgate run` (as root) SIGKILLed it.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { scratchDir } from '../helpers/scratch.js';

const ROOT_USER = process.getuid?.() === 0;
const NOBODY = 65534;

// A fresh module per case: the registry keeps its own file and warning in module state.
async function registry(dir) {
  process.env.TAILGATE_STATE_DIR = dir;
  return import(`../../src/exec/registry.js?case=${Math.random()}`);
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function entryFor(pid, startTime) {
  return `${JSON.stringify({ pid, start: startTime(pid), group: false, name: 'victim' })}\n`;
}

// A dead run's registry file name: a pid that is not running.
const DEAD = `999999-1.jsonl`;

test('registry: a world-writable state dir is refused — nothing recorded, nothing swept', async () => {
  const dir = scratchDir('tg-state-shared-');
  chmodSync(dir, 0o1777);
  const victim = spawn('sleep', ['30'], { stdio: 'ignore' });
  try {
    const reg = await registry(dir);
    writeFileSync(join(dir, DEAD), entryFor(victim.pid, reg.startTime));
    assert.match(reg.untrustedDir(dir), /others can write it \(mode 1777\)/);
    assert.equal(reg.sweepDeadRuns(), null);
    assert.ok(alive(victim.pid), 'the process named in a shared folder lives');
  } finally {
    victim.kill();
  }
});

test(
  'registry: an entry file another user wrote is never acted on',
  { skip: !ROOT_USER && 'needs root to chown' },
  async () => {
    const dir = scratchDir('tg-state-');
    const victim = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      const reg = await registry(dir);
      writeFileSync(join(dir, DEAD), entryFor(victim.pid, reg.startTime));
      chownSync(join(dir, DEAD), NOBODY, NOBODY);
      assert.equal(reg.sweepDeadRuns(), null);
      assert.ok(alive(victim.pid));
    } finally {
      victim.kill();
    }
  },
);

test(
  "registry: a process of another user is never killed, even named in this user's own file",
  { skip: !ROOT_USER && 'needs root to start a process as another user' },
  async () => {
    const dir = scratchDir('tg-state-');
    const victim = spawn('sleep', ['30'], { stdio: 'ignore', uid: NOBODY, gid: NOBODY });
    try {
      await new Promise((r) => setTimeout(r, 100));
      const reg = await registry(dir);
      writeFileSync(join(dir, DEAD), entryFor(victim.pid, reg.startTime));
      assert.equal(reg.sweepDeadRuns(), null);
      assert.ok(alive(victim.pid), "another user's process lives");
    } finally {
      victim.kill();
    }
  },
);

test('registry: a recorded process that now runs a program its command did not name is left alone; one that runs the named program is removed', async () => {
  const dir = scratchDir('tg-state-');
  const a = spawn('sleep', ['30'], { stdio: 'ignore' });
  const b = spawn('sleep', ['30'], { stdio: 'ignore' });
  try {
    await new Promise((r) => setTimeout(r, 100));
    const reg = await registry(dir);
    const line = (p, cmd) => `${JSON.stringify({ pid: p.pid, start: reg.startTime(p.pid), group: false, cmd })}\n`;
    // b was started through a launcher (as `ip netns exec … nginx` is): its program is named in the command.
    writeFileSync(
      join(dir, DEAD),
      line(a, ['something-else', '30']) + line(b, ['ip', 'netns', 'exec', 'tgl1', 'sleep', '30']),
    );
    assert.match(reg.sweepDeadRuns() ?? '', /removed what a killed run left behind .*1 process\b/);
    assert.ok(alive(a.pid), 'a different executable: not the recorded process');
    await new Promise((r) => setTimeout(r, 100));
    assert.ok(
      !alive(b.pid) ||
        spawnSync('ps', ['-o', 'stat=', '-p', String(b.pid)], { encoding: 'utf8' }).stdout.startsWith('Z'),
    );
  } finally {
    a.kill();
    b.kill();
  }
});

test(
  'registry: a state dir that is a link or not this user’s is refused',
  { skip: !ROOT_USER && 'needs root to chown' },
  async () => {
    const dir = scratchDir('tg-state-');
    const other = join(dir, 'other');
    mkdirSync(other, { mode: 0o700 });
    chownSync(other, NOBODY, NOBODY);
    const reg = await registry(other);
    assert.match(reg.untrustedDir(other), /belongs to uid 65534/);
  },
);

test("registry: a live run's kind clusters are known, so another run's stale-cluster sweep leaves them alone (two runs deleted each other's)", async () => {
  const dir = scratchDir('tg-state-');
  const reg = await registry(dir);
  const live = spawn('sleep', ['30'], { stdio: 'ignore' });
  try {
    await new Promise((r) => setTimeout(r, 100));
    writeFileSync(
      join(dir, `${live.pid}-${reg.startTime(live.pid)}.jsonl`),
      `${JSON.stringify({ cluster: 'tailgate-abc-traefik' })}\n`,
    );
    writeFileSync(join(dir, DEAD), `${JSON.stringify({ cluster: 'tailgate-dead-traefik' })}\n`);
    assert.deepEqual([...reg.liveClusters()], ['tailgate-abc-traefik']);
  } finally {
    live.kill();
  }
});

test("teardown.sh (every CI job's always-run cleanup) deletes only clusters no live run created — it deleted a concurrent job's cluster mid-measurement", async () => {
  const dir = scratchDir('tg-state-');
  const reg = await registry(dir);
  const bin = scratchDir('tg-fake-kind-');
  const deleted = join(bin, 'deleted');
  // A kind that lists three clusters and records what it is asked to delete.
  writeFileSync(
    join(bin, 'kind'),
    `#!/bin/sh\ncase "$1 $2" in\n  "get clusters") printf 'tailgate-live-traefik\\ntailgate-dead-traefik\\nsomeone-else\\n' ;;\n  "delete cluster") echo "$4" >> ${deleted} ;;\nesac\n`,
    { mode: 0o755 },
  );
  const live = spawn('sleep', ['30'], { stdio: 'ignore' });
  try {
    await new Promise((r) => setTimeout(r, 100));
    writeFileSync(
      join(dir, `${live.pid}-${reg.startTime(live.pid)}.jsonl`),
      `${JSON.stringify({ cluster: 'tailgate-live-traefik' })}\n`,
    );
    const r = spawnSync(join(process.cwd(), 'tools', 'ci', 'teardown.sh'), [], {
      encoding: 'utf8',
      env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, TAILGATE_STATE_DIR: dir },
    });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /tailgate-live-traefik belongs to a tailgate run still running here: left alone/);
    assert.deepEqual(readFileSync(deleted, 'utf8').trim().split('\n'), ['tailgate-dead-traefik']);
  } finally {
    live.kill();
  }
});
