// Endpoint change = POST the endpoint list to an internal HTTP endpoint; a Lua
// balancer reads it from a shared dict. No reload: ingress-nginx's design.
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { InfraError } from '../../../errors.js';
import { controllerMs } from '../../../config/normalise.js';
import { renderTemplate } from '../template.js';
import { nginxTls } from '../tls.js';
import { nginxSettings } from '../tuning.js';
import { startNginx } from './nginx-common.js';

export const name = 'nginx-dynamic';

export async function start(ctx) {
  copyFileSync(new URL('../templates/tailgate_balancer.lua', import.meta.url), join(ctx.dir, 'tailgate_balancer.lua'));
  const settings = nginxSettings(ctx.tuning, ctx.controller);
  const config = renderTemplate('nginx-dynamic.conf', {
    ...settings,
    ...nginxTls(ctx.tls),
    dir: ctx.dir,
    luaDir: ctx.dir,
    address: ctx.address,
    port: ctx.port,
    controlAddress: ctx.controlAddress,
    controlPort: ctx.controlPort,
    moreTries: ctx.controller.retries === 'on' ? 2 : 0,
    proxyDelay: proxyDelay(controllerMs(ctx.controller).proxyDelay),
  });
  // The balancer needs endpoints before the first request: configure, then open.
  const child = await startNginx(ctx, config);
  const post = (endpoints) => postBackends(ctx.controlAddress, ctx.controlPort, endpoints);
  await post(ctx.endpoints);
  return { child, apply: async (endpoints) => (await post(endpoints), { reload: false }) };
}

// A canary knob: the proxy waits before proxying (ngx.sleep has 1 ms resolution).
function proxyDelay(ms) {
  const s = ms / 1000;
  return s > 0 ? `access_by_lua_block { ngx.sleep(${s.toFixed(3)}) }` : '';
}

async function postBackends(address, port, endpoints) {
  const body = endpoints.map((e) => `${e.address}:${e.port}`).join('\n');
  const res = await fetch(`http://${address}:${port}/configuration/backends`, { method: 'POST', body });
  if (!res.ok)
    throw new InfraError(`nginx-dynamic: POST /configuration/backends answered ${res.status}: ${await res.text()}`);
}
