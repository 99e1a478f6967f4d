// A backend "pod": a real nginx (worker_processes 1, as one small container would
// run) on its own loopback address, serving the 0 KiB and 1 KiB bodies of the field
// reports. Optional delay or error injection (for canary regressions) uses Lua.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderTemplate } from './template.js';
import { waitForPort } from './proc.js';

export const BACKEND_PORT = 8080;

// Bodies are served from the config itself: no files, so no file permissions to
// get wrong when the worker runs as another user than the one who wrote the dir.
const BODY_1KIB = 'x'.repeat(1023);

export function renderBackendConfig({ dir, address, delayMs = 0, errorRate = 0 }) {
  const lua = delayMs > 0 || errorRate > 0;
  const handler = (body) => {
    if (!lua) return `return 200 "${body}${body ? '\\n' : ''}";`;
    const steps = [];
    if (delayMs > 0) steps.push(`ngx.sleep(${(delayMs / 1000).toFixed(4)})`);
    if (errorRate > 0) steps.push(`if math.random() < ${errorRate} then return ngx.exit(500) end`);
    steps.push(`ngx.print("${body}${body ? '\\n' : ''}")`);
    return `content_by_lua_block { ${steps.join(' ')} }`;
  };
  return renderTemplate('backend.nginx.conf', {
    dir,
    address,
    port: BACKEND_PORT,
    loadModules: lua
      ? 'load_module /usr/lib/nginx/modules/ndk_http_module.so;\nload_module /usr/lib/nginx/modules/ngx_http_lua_module.so;'
      : '',
    body0: handler(''),
    body1: handler(BODY_1KIB),
  });
}

export async function startPod(group, { name, dir, address, delayMs, errorRate, ns, nginx = 'nginx' }) {
  mkdirSync(join(dir, 'tmp'), { recursive: true });
  const conf = join(dir, 'nginx.conf');
  writeFileSync(conf, renderBackendConfig({ dir, address, delayMs, errorRate }));
  const child = await group.start(nginx, ['-e', join(dir, 'error.log'), '-c', conf, '-p', dir], {
    logFile: join(dir, 'stdout.log'),
    name: `pod ${name}`,
    ns,
  });
  await waitForPort(address, BACKEND_PORT, {
    child,
    what: `pod ${name} (nginx, config ${conf}, log ${join(dir, 'error.log')})`,
  });
  return { name, address, port: BACKEND_PORT, dir, child, startedAt: Date.now() };
}
