// Shared by both nginx variants: write the config, let `nginx -t` judge it (and
// show its own words plus the generated file when it refuses), start, wait.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { check, runSync } from '../../../exec/run.js';
import { inNamespace } from '../netns.js';
import { waitForPort } from '../proc.js';

export async function startNginx(ctx, config) {
  const { group, dir, address, port } = ctx;
  mkdirSync(join(dir, 'tmp'), { recursive: true });
  const conf = join(dir, 'nginx.conf');
  writeFileSync(conf, config);
  const args = ['-c', conf, '-p', dir, '-e', join(dir, 'error.log')];
  // nginx -t binds the listen addresses: in netns mode it must run inside the namespace.
  const [file, argv] = inNamespace(ctx.ns, 'nginx', ['-t', ...args]);
  const r = runSync([file, ...argv], { timeoutMs: 30_000 });
  if (r.code === 127)
    check(r, 'cannot run nginx', {
      hint: 'apt-get install nginx libnginx-mod-http-lua lua-resty-core, or run make setup',
    });
  check(r, `nginx rejected the generated config ${conf}`);
  const child = await group.start('nginx', args, {
    logFile: join(dir, 'stdout.log'),
    name: `proxy ${ctx.variant}`,
    ns: ctx.ns,
  });
  await waitForPort(address, port, { child, what: `${ctx.variant} (nginx, config ${conf})` });
  return child;
}
