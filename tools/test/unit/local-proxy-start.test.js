// What a local proxy's start relies on before its first request: its ports are distinct,
// and nginx-dynamic posts its endpoints only to a control listener that is there. Both
// broke rarely (a POST answered 500, or refused) and only under the real timing, so the
// kernel's picks and nginx's gap between its two listeners are forced here.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { freePort, portPicker } from '../../src/targets/local/ports.js';
import { ProcessGroup } from '../../src/targets/local/proc.js';
import { start } from '../../src/targets/local/variants/nginx-dynamic.js';
import { makeCell } from '../helpers/cells.js';
import { withFakeTool } from '../helpers/fake-tool.js';
import { scratchDir } from '../helpers/scratch.js';

test('freePort: a port the kernel offers again is not handed out twice', async () => {
  const offers = [40001, 40001, 40003, 40001, 40005];
  const pick = portPicker(async () => offers.shift());
  assert.deepEqual([await pick(), await pick(), await pick()], [40001, 40003, 40005]);
  const stuck = portPicker(async () => 40007);
  await stuck();
  await assert.rejects(stuck(), /no free TCP port/);
});

test("freePort: the kernel's own picks, a data and a control port at a time, never the same", async () => {
  // Unfixed, about 1 pair in 7,000 collided: among 600 ports, each against the 63 before
  // it, a repeat was near certain.
  const ports = [];
  for (let i = 0; i < 600; i++) ports.push(await freePort());
  for (let i = 0; i < ports.length; i++)
    assert.ok(!ports.slice(Math.max(0, i - 63), i).includes(ports[i]), `port ${ports[i]} again at call ${i}`);
});

test('nginx-dynamic: the same port for data and control is refused, not started', async () => {
  const ctx = dynamicCtx(scratchDir('tg-dyn-'), 40009, 40009);
  try {
    await assert.rejects(start(ctx), /data and control listeners both on 127\.0\.0\.1:40009/);
    assert.equal(ctx.group.children.size, 0);
  } finally {
    await ctx.group.stopAll();
  }
});

// nginx opens its listeners in config order, the data one first; this one leaves 300 ms
// (real nginx: microseconds, unless descheduled) before the control one.
const SLOW_NGINX = `#!/usr/bin/env node
const fs = require('node:fs');
const http = require('node:http');
const net = require('node:net');
const args = process.argv.slice(2);
if (args.includes('-t')) process.exit(0);
const conf = fs.readFileSync(args[args.indexOf('-c') + 1], 'utf8');
const [data, control] = [...conf.matchAll(/listen 127\\.0\\.0\\.1:(\\d+)/g)].map((m) => Number(m[1]));
net.createServer((s) => s.destroy()).listen(data, '127.0.0.1', () =>
  setTimeout(() => http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('version 1\\n'));
  }).listen(control, '127.0.0.1'), 300));
`;

test('nginx-dynamic: the endpoints are posted once the control listener accepts, not when the data one does', async () => {
  await withFakeTool('nginx', SLOW_NGINX, {}, async () => {
    const ctx = dynamicCtx(scratchDir('tg-dyn-'), await freePort(), await freePort());
    try {
      const dp = await start(ctx);
      assert.equal(dp.child.exitCode, null);
    } finally {
      await ctx.group.stopAll();
    }
  });
});

function dynamicCtx(root, port, controlPort) {
  const dir = join(root, 'proxy');
  mkdirSync(dir);
  const cell = makeCell({
    controller: { variant: 'nginx-dynamic' },
    scenario: { script: 'steady', rate: 10, duration: '1s', replicas: 1 },
  });
  return {
    group: new ProcessGroup(),
    dir,
    variant: 'nginx-dynamic',
    controller: cell.controller,
    tuning: cell.tuning,
    endpoints: [{ address: '127.0.0.9', port: 8080 }],
    tls: null,
    address: '127.0.0.1',
    port,
    controlAddress: '127.0.0.1',
    controlPort,
  };
}
