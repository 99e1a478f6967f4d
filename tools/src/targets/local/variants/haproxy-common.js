// HAProxy in master-worker mode: config checked with `haproxy -c` first, the
// runtime API on the admin socket, reloads through the master CLI socket.
import { writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { check, runSync } from '../../../exec/run.js';
import { InfraError } from '../../../errors.js';
import { renderTemplate } from '../template.js';
import { haproxyTls } from '../tls.js';
import { haproxySettings } from '../tuning.js';
import { sleep, waitForPort } from '../proc.js';

/** haproxy.cfg for a variant: the tuning's settings, TLS, sockets and listener, and the
 *  variant's own server lines (a fixed list, or runtime-API slots). */
export function renderConfig(ctx, variant, servers) {
  return renderTemplate('haproxy.cfg', {
    ...haproxySettings(ctx.tuning, ctx.controller),
    ...haproxyTls(ctx.tls),
    variant,
    dir: ctx.dir,
    sockDir: ctx.sockDir,
    address: ctx.address,
    port: ctx.port,
    servers,
  });
}

export function writeConfig(dir, text) {
  const cfg = join(dir, 'haproxy.cfg');
  writeFileSync(cfg, text);
  const r = runSync(['haproxy', '-c', '-f', cfg], { timeoutMs: 30_000 });
  if (r.code === 127) check(r, 'cannot run haproxy', { hint: 'apt-get install haproxy, or run make setup' });
  check(r, `haproxy rejected the generated config ${cfg}`);
  return cfg;
}

export async function startHaproxy(ctx, cfg) {
  const master = join(ctx.sockDir, 'master.sock');
  const child = await ctx.group.start('haproxy', ['-W', '-S', `${master},mode,600`, '-f', cfg], {
    logFile: join(ctx.dir, 'haproxy.log'),
    name: `proxy ${ctx.variant}`,
    ns: ctx.ns,
  });
  await waitForPort(ctx.address, ctx.port, { child, what: `${ctx.variant} (haproxy, config ${cfg})` });
  // The port can answer before the worker has made its admin socket (seen once on a
  // loaded 2-core machine: ENOENT 135 ms after start): wait for it, bounded.
  const admin = join(ctx.sockDir, 'admin.sock');
  await cli(admin, ['show info'], { retryMs: 5000 });
  return { child, master, admin };
}

/** Sends commands (joined with ';') to a HAProxy CLI socket and returns the answer. */
export async function cli(socketPath, commands, { retryMs = 0 } = {}) {
  // The master re-executes itself on reload; its socket is gone for a moment.
  const deadline = Date.now() + retryMs;
  for (;;) {
    try {
      return await cliOnce(socketPath, commands);
    } catch (err) {
      if (Date.now() >= deadline) throw err;
      await sleep(20);
    }
  }
}

function cliOnce(socketPath, commands) {
  return new Promise((resolve, reject) => {
    const s = createConnection(socketPath);
    let out = '';
    s.setEncoding('utf8');
    s.on('data', (d) => (out += d));
    s.on('error', (err) => reject(new InfraError(`haproxy CLI ${socketPath}: ${err.message}`)));
    s.on('end', () => resolve(out));
    s.on('connect', () => s.end(`${commands.join(';')}\n`));
  });
}
