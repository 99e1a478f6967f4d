import { createServer } from 'node:net';

/** A TCP port free on 127.0.0.1 right now (the kernel picks it). */
export function freePort() {
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
