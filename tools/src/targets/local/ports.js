import { createServer } from 'node:net';
import { InfraError } from '../../errors.js';

// A port handed out here is closed again until its user binds it, so the kernel sees it
// as free and may pick it for the next call: Linux picks bind(0) ports at random among
// about 7,000 (odd ports, lower half of the range), so about 1 call in 7,000 did. A
// proxy's data and control listeners then shared one port — nginx takes two server
// blocks on one address:port as virtual hosts (a warning, no error), and nginx-dynamic's
// POST /configuration/backends went to the proxying server: 500. So each call returns
// a port that none of the last few calls of this process returned.
const RECENT = 64;
const TRIES = 100;

/** A function like freePort that takes its candidates from pick (the kernel's, unless a test's). */
export function portPicker(pick = kernelPort) {
  const recent = [];
  return async () => {
    for (let i = 0; i < TRIES; i++) {
      const port = await pick();
      if (recent.includes(port)) continue;
      recent.push(port);
      if (recent.length > RECENT) recent.shift();
      return port;
    }
    throw new InfraError(`no free TCP port on 127.0.0.1 other than the last ${recent.length} handed out`);
  };
}

/** A TCP port free on 127.0.0.1 right now (the kernel picks it), and not one this process handed out lately. */
export const freePort = portPicker();

function kernelPort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** A /24 of loopback addresses for one cell's pods: 127.<77..126>.<0..255>. */
export function podSubnet(seed = process.pid) {
  return `127.${77 + (seed % 50)}.${Math.floor(Math.random() * 256)}`;
}
