// Endpoint change = POST the endpoint list to an internal HTTP endpoint; a Lua
// balancer reads it from a shared dict. No reload: ingress-nginx's design.
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { InfraError } from '../../../errors.js';
import { controllerMs } from '../../../config/normalise.js';
import { renderTemplate } from '../template.js';
import { nginxTls } from '../tls.js';
import { nginxSettings } from '../tuning.js';
import { waitForPort } from '../proc.js';
import { startNginx } from './nginx-common.js';

export const name = 'nginx-dynamic';

export async function start(ctx) {
  // One port for both would not fail to start: nginx makes the two server blocks virtual
  // hosts of one listener, and the POST below would reach the proxying one (a bare 500).
  if (ctx.port === ctx.controlPort && ctx.address === ctx.controlAddress)
    throw new InfraError(`nginx-dynamic: data and control listeners both on ${ctx.address}:${ctx.port}`);
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
  // startNginx waited for the data listener; nginx opens the control one just after it,
  // and a master descheduled in between refused the POST (about 1 start in 500 on a loaded
  // 2-core machine). nginx opens both before it forks a worker, so once this one
  // accepts, the POST waits in its backlog for a worker, however slow the start.
  await waitForPort(ctx.controlAddress, ctx.controlPort, {
    child,
    what: `nginx-dynamic's control endpoint (config ${join(ctx.dir, 'nginx.conf')})`,
  });
  const log = join(ctx.dir, 'error.log');
  const post = (endpoints) => postBackends(ctx.controlAddress, ctx.controlPort, endpoints, log);
  await post(ctx.endpoints);
  return { child, apply: async (endpoints) => (await post(endpoints), { reload: false }) };
}

// A canary knob: the proxy waits before proxying (ngx.sleep has 1 ms resolution).
function proxyDelay(ms) {
  const s = ms / 1000;
  return s > 0 ? `access_by_lua_block { ngx.sleep(${s.toFixed(3)}) }` : '';
}

async function postBackends(address, port, endpoints, log) {
  const body = endpoints.map((e) => `${e.address}:${e.port}`).join('\n');
  const res = await fetch(`http://${address}:${port}/configuration/backends`, { method: 'POST', body });
  if (!res.ok)
    throw new InfraError(`nginx-dynamic: POST /configuration/backends answered ${res.status}: ${await res.text()}`, {
      details: [`nginx's log: ${log}`],
    });
}
