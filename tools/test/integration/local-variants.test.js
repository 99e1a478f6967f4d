// Each data-plane variant's endpoint-update path, on real processes: a killed pod
// must disappear from the data plane (with retries off, any request routed to it
// would fail), and a harness failure must leave no process behind.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { test } from 'node:test';
import { InfraError } from '../../src/errors.js';
import { EndpointController } from '../../src/targets/local/endpoint-controller.js';
import { EventLog } from '../../src/run/event-log.js';
import { PodSet } from '../../src/targets/local/pods.js';
import { freePort, podSubnet } from '../../src/targets/local/ports.js';
import { ProcessGroup } from '../../src/targets/local/proc.js';
import { VARIANTS } from '../../src/targets/local/variants/index.js';
import { runCell } from '../../src/targets/local/driver.js';
import { makeCell } from '../helpers/cells.js';
import { processesMentioning } from '../helpers/procs.js';
import { scratchDir } from '../helpers/scratch.js';

async function withDataPlane(variant, fn) {
  const dir = scratchDir(`tg-${variant}-`);
  const sockDir = mkdtempSync('/tmp/tg-');
  const group = new ProcessGroup();
  const events = new EventLog(join(dir, 'events.jsonl'));
  try {
    const pods = new PodSet({ group, dir: join(dir, 'pods'), subnet: podSubnet(7), events });
    await pods.scaleTo(3);
    const ctx = {
      group,
      dir,
      sockDir,
      variant,
      controller: { retries: 'off' },
      tuning: {},
      address: '127.0.0.1',
      port: await freePort(),
      controlAddress: '127.0.0.1',
      controlPort: await freePort(),
      endpoints: pods.endpoints(),
    };
    const dp = await VARIANTS[variant].start(ctx);
    const ctl = new EndpointController({ dataPlane: dp, events });
    pods.onChange((eps) => ctl.onChange(eps));
    await fn({ pods, ctl, url: `http://127.0.0.1:${ctx.port}/0KiB` });
  } finally {
    await group.stopAll();
    rmSync(sockDir, { recursive: true, force: true });
  }
  assert.deepEqual(processesMentioning(dir), [], 'no process of the test left');
}

async function statuses(url, n) {
  const out = [];
  for (let i = 0; i < n; i++) out.push((await fetch(url, { headers: { connection: 'close' } })).status);
  return out;
}

for (const variant of ['nginx-reload', 'nginx-dynamic', 'haproxy-reload', 'haproxy-runtime']) {
  test(`local ${variant}: a killed pod leaves the data plane; a new one joins`, { timeout: 30_000 }, async () => {
    await withDataPlane(variant, async ({ pods, ctl, url }) => {
      assert.deepEqual(new Set(await statuses(url, 9)), new Set([200]));
      await pods.remove(pods.random(), 'kill');
      await ctl.settle();
      await new Promise((r) => setTimeout(r, 300)); // reloads finish draining old workers
      assert.deepEqual(new Set(await statuses(url, 30)), new Set([200]), 'no request reaches the dead pod');
      await pods.add();
      await pods.remove(pods.oldest(), 'kill');
      await pods.remove(pods.oldest(), 'kill');
      await ctl.settle();
      await new Promise((r) => setTimeout(r, 300));
      assert.deepEqual(new Set(await statuses(url, 20)), new Set([200]), 'the new pod serves alone');
      assert.equal(ctl.failures.length, 0);
      if (variant.endsWith('reload')) assert.ok(ctl.reloads >= 2, `reloads counted (${ctl.reloads})`);
      else assert.equal(ctl.reloads, 0);
    });
  });
}

test(
  'local: a proxy that rejects its config is an infra error naming the file, and nothing is left running',
  { timeout: 30_000 },
  async () => {
    const dir = scratchDir('tg-broken-');
    const fakeBin = new URL('../fixtures/bin/broken-haproxy', import.meta.url).pathname;
    const oldPath = process.env.PATH;
    process.env.PATH = `${fakeBin}${delimiter}${oldPath}`;
    try {
      const cell = makeCell({
        controller: { variant: 'haproxy-runtime' },
        scenario: { script: 'steady', rate: 50, duration: '2s', replicas: 2 },
      });
      await assert.rejects(runCell({ cell, cellDir: dir }), (err) => {
        assert.ok(err instanceof InfraError);
        assert.match(err.message, /haproxy rejected the generated config .*proxy\/haproxy\.cfg/);
        assert.match(err.details.join('\n'), /unknown keyword 'fake-test-error'/);
        return true;
      });
    } finally {
      process.env.PATH = oldPath;
    }
    assert.deepEqual(processesMentioning(dir), []);
  },
);
