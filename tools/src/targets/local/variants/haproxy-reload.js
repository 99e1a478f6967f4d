// Endpoint change = rewrite the server list and reload through the master socket
// (seamless: listeners pass to the new worker). The OpenShift router's behaviour.
import { cli, renderConfig, startHaproxy, writeConfig } from './haproxy-common.js';

export const name = 'haproxy-reload';

export async function start(ctx) {
  const render = (endpoints) =>
    renderConfig(ctx, name, endpoints.map((e, i) => `  server pod${i + 1} ${e.address}:${e.port}`).join('\n'));
  const cfg = writeConfig(ctx.dir, render(ctx.endpoints));
  const proc = await startHaproxy(ctx, cfg);
  return {
    child: proc.child,
    async apply(endpoints) {
      writeConfig(ctx.dir, render(endpoints));
      await cli(proc.master, ['reload'], { retryMs: 5000 });
      // Applied once the re-executed master answers again.
      await cli(proc.master, ['show proc'], { retryMs: 5000 });
      return { reload: true };
    },
  };
}
