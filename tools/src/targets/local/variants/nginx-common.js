// Shared by both nginx variants: write the config, let `nginx -t` judge it (and
// show its own words plus the generated file when it refuses), start, wait.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InfraError } from '../../../errors.js';
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
  const check = spawnSync(file, argv, { encoding: 'utf8' });
  if (check.error) throw new InfraError(`cannot run nginx (${check.error.code}): apt-get install nginx libnginx-mod-http-lua lua-resty-core, or run make setup`);
  if (check.status !== 0) {
    throw new InfraError(`nginx rejected the generated config ${conf}`, { details: [`command: nginx -t ${args.join(' ')}`, ...check.stderr.trim().split('\n')] });
  }
  const child = await group.start('nginx', args, { logFile: join(dir, 'stdout.log'), name: `proxy ${ctx.variant}`, ns: ctx.ns });
  await waitForPort(address, port, { child, what: `${ctx.variant} (nginx, config ${conf})` });
  return child;
}
