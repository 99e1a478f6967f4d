// isolation: netns on real namespaces (root only): the proxy's namespace gets the
// tuning's backlog as net.core.somaxconn, the run measures through the bridge, and
// nothing is left behind.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { runCell } from '../../src/targets/local/driver.js';
import { makeCell } from '../helpers/cells.js';
import { runLocal } from '../helpers/local-run.js';
import { scratchDir } from '../helpers/scratch.js';

const namespaces = () =>
  (spawnSync('ip', ['netns', 'list'], { encoding: 'utf8' }).stdout ?? '')
    .split('\n')
    .filter((l) => l.startsWith('tgl'));

test(
  'netns: per-namespace somaxconn, real traffic over the bridge, full cleanup',
  { skip: process.getuid() !== 0 && 'needs root', timeout: 60_000 },
  async () => {
    const { result: r } = await runLocal({
      controller: { variant: 'nginx-dynamic', retries: 'off' },
      tuning: { backlog: 32768 },
      scenario: { script: 'steady', rate: 200, duration: '3s', replicas: 2 },
      extra: { isolation: 'netns' },
    });
    const ready = r.events.find((e) => e.type === 'netns-ready');
    assert.equal(ready.somaxconn, 32768, 'the proxy namespace has the tuning backlog as somaxconn');
    assert.match(ready.address, /^10\.\d+\.\d+\.2$/);
    assert.ok(r.requests.total >= 550, `${r.requests.total} requests`);
    assert.equal(r.errors.total, 0);
    assert.deepEqual(namespaces(), []);
  },
);

test(
  'netns: nodeLatency without tc netem in the kernel is a clear infra error, and cleanup still happens',
  { skip: process.getuid() !== 0 && 'needs root', timeout: 60_000 },
  async () => {
    const netem =
      spawnSync('sh', [
        '-c',
        'ip link add tglprobe type dummy && tc qdisc add dev tglprobe root netem delay 1ms; rc=$?; ip link del tglprobe; exit $rc',
      ]).status === 0;
    const cell = {
      ...makeCell({
        controller: { variant: 'nginx-dynamic' },
        scenario: { script: 'steady', rate: 100, duration: '2s', replicas: 1 },
      }),
      isolation: 'netns',
      nodeLatency: '1ms',
    };
    const dir = scratchDir('tg-netem-');
    if (netem) {
      const run = await runCell({ cell, cellDir: dir });
      assert.equal(run.load.exitCode, 0);
    } else {
      await assert.rejects(runCell({ cell, cellDir: dir }), /nodeLatency needs tc netem/);
    }
    assert.deepEqual(namespaces(), []);
  },
);
