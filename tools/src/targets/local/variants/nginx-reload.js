// Endpoint change = rewrite the upstream list and `nginx -s reload` (SIGHUP to the
// master): new workers start, old ones drain. The classic template-and-reload path.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderTemplate } from '../template.js';
import { nginxTls } from '../tls.js';
import { nginxSettings } from '../tuning.js';
import { startNginx } from './nginx-common.js';

export const name = 'nginx-reload';

export async function start(ctx) {
  const dir = ctx.dir;
  writeUpstreams(dir, ctx.endpoints);
  const settings = nginxSettings(ctx.tuning, ctx.controller);
  const child = await startNginx(
    ctx,
    renderTemplate('nginx-reload.conf', {
      ...settings,
      ...nginxTls(ctx.tls),
      dir,
      address: ctx.address,
      port: ctx.port,
    }),
  );
  return {
    child,
    async apply(endpoints) {
      writeUpstreams(dir, endpoints);
      process.kill(child.pid, 'SIGHUP');
      return { reload: true };
    },
  };
}

function writeUpstreams(dir, endpoints) {
  // An upstream block needs one server; with no endpoints it gets one that is down.
  const lines = endpoints.length
    ? endpoints.map((e) => `server ${e.address}:${e.port} max_fails=0;`)
    : ['server 127.0.0.1:9 down;'];
  writeFileSync(join(dir, 'upstreams.conf'), `${lines.join('\n')}\n`);
}
