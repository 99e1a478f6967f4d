// kind publishes the ingress on 127.0.0.1 host ports. A port some other process holds (a
// second job on a self-hosted runner, a developer's own server on 18080) makes docker
// refuse the cluster after it is half made; a run takes the first free ones instead.
import { createServer } from 'node:net';
import { InfraError } from '../../errors.js';
import { HOST_PORT } from './context.js';

const SPAN = 200; // 18080-18279

/** Whether 127.0.0.1:port can be listened on right now. */
export function canListen(port) {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen({ port, host: '127.0.0.1', exclusive: true }, () => srv.close(() => resolve(true)));
  });
}

/** `count` host ports free on 127.0.0.1, the lowest from HOST_PORT up; busy ones are named. */
export async function freeHostPorts(count, { from = HOST_PORT, isFree = canListen } = {}) {
  const ports = [];
  const busy = [];
  for (let p = from; ports.length < count && p < from + SPAN; p++) (await isFree(p)) ? ports.push(p) : busy.push(p);
  if (ports.length < count)
    throw new InfraError(
      `no ${count} free host ports on 127.0.0.1 between ${from} and ${from + SPAN - 1} for kind's ingress port mappings`,
    );
  return { ports, busy };
}

/** "host port 18080 is in use on 127.0.0.1: <taker> 18081, 18082 instead" (doctor, a run). */
export function busyLine({ ports, busy }, taker) {
  const which = busy.length > 1 ? `ports ${busy.join(', ')} are` : `port ${busy[0]} is`;
  return `host ${which} in use on 127.0.0.1: ${taker} ${ports.join(', ')} instead`;
}
