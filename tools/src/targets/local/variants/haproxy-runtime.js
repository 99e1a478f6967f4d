// Endpoint change = runtime API: server-template slots get an address and go
// "ready", removed ones go to "maint". No reload, no new process.
import { InfraError } from '../../../errors.js';
import { cli, renderConfig, startHaproxy, writeConfig } from './haproxy-common.js';

export const name = 'haproxy-runtime';
const SLOTS = 64;

export async function start(ctx) {
  const cfg = writeConfig(ctx.dir, renderConfig(ctx, name, `  server-template pod 1-${SLOTS} 127.0.0.1:9 disabled`));
  const proc = await startHaproxy(ctx, cfg);
  const slots = new Map(); // "addr:port" -> slot number
  const apply = async (endpoints) => {
    const want = new Set(endpoints.map((e) => `${e.address}:${e.port}`));
    const cmds = [];
    for (const [ep, slot] of slots) {
      if (!want.has(ep)) {
        cmds.push(`set server be/pod${slot} state maint`);
        slots.delete(ep);
      }
    }
    const used = new Set(slots.values());
    for (const e of endpoints) {
      const ep = `${e.address}:${e.port}`;
      if (slots.has(ep)) continue;
      let slot = 1;
      while (used.has(slot)) slot++;
      if (slot > SLOTS) throw new InfraError(`haproxy-runtime: more than ${SLOTS} endpoints`);
      used.add(slot);
      slots.set(ep, slot);
      cmds.push(`set server be/pod${slot} addr ${e.address} port ${e.port}`, `set server be/pod${slot} state ready`);
    }
    if (cmds.length) {
      const answer = await cli(proc.admin, cmds);
      const bad = answer.split('\n').filter((l) => /(No such|Require|Unknown|invalid)/i.test(l));
      if (bad.length) throw new InfraError(`haproxy-runtime: runtime API refused: ${bad.join('; ')}`);
    }
    return { reload: false };
  };
  await apply(ctx.endpoints);
  return { child: proc.child, apply };
}
