// isolation: netns — every pod and the proxy in its own network namespace on one
// bridge (no routing through the host: the host reaches them over the bridge, and
// IPv4 forwarding stays off). Per-namespace sysctls (net.core.somaxconn is per
// namespace) and, where the kernel has it, tc netem delay between "nodes".
// Everything is named tgl<id>… so cleanup, also of a crashed earlier run, is exact.
import { failure, runSync } from '../../exec/run.js';
import { recordLink, recordNetns } from '../../exec/registry.js';

const PREFIX = 'tgl';

/** [file, args] that run cmd inside namespace ns (or as is without one). `ip netns
 *  exec` execs the command, so the pid and process group are the command's own. */
export function inNamespace(ns, cmd, args) {
  return ns ? ['ip', ['netns', 'exec', ns, cmd, ...args]] : [cmd, args];
}

function sh([cmd, ...args], { ns, allowFail = false } = {}) {
  const [file, argv] = inNamespace(ns, cmd, args);
  const r = runSync([file, ...argv], { timeoutMs: 30_000 });
  if (r.code !== 0 && !allowFail) throw failure('netns setup failed', r);
  return r;
}

export function netnsAvailable() {
  if (process.getuid?.() !== 0) return 'isolation: netns needs root (ip netns, veth, bridge)';
  if (runSync(['ip', '-V'], { timeoutMs: 5000 }).code !== 0)
    return 'isolation: netns needs iproute2 (apt-get install iproute2)';
  return null;
}

/** Removes namespaces and bridges of earlier runs that died without cleaning up. */
export function removeStale() {
  const list = sh(['ip', 'netns', 'list'], { allowFail: true }).stdout ?? '';
  for (const line of list.split('\n')) {
    const name = line.split(' ')[0];
    if (name.startsWith(PREFIX)) sh(['ip', 'netns', 'del', name], { allowFail: true });
  }
  const links = sh(['ip', '-o', 'link', 'show', 'type', 'bridge'], { allowFail: true }).stdout ?? '';
  for (const m of links.matchAll(/^\d+: (tgl[0-9a-z]+)[:@]/gm)) sh(['ip', 'link', 'del', m[1]], { allowFail: true });
}

export class Network {
  constructor({ id, subnet }) {
    this.id = id; // a few [0-9a-z] characters: interface names are limited to 15
    this.subnet = subnet; // e.g. "10.213.7"
    this.bridge = `${PREFIX}${id}`;
    this.hosts = [];
    recordLink(this.bridge);
    sh(['ip', 'link', 'add', this.bridge, 'type', 'bridge']);
    sh(['ip', 'addr', 'add', `${subnet}.1/24`, 'dev', this.bridge]);
    sh(['ip', 'link', 'set', this.bridge, 'up']);
  }

  /** A namespace with one address on the bridge; returns {ns, address}. */
  addHost(index, { somaxconn, delayMs = 0 } = {}) {
    const ns = `${PREFIX}${this.id}-${index}`;
    const hostSide = `${PREFIX}${this.id}h${index}`;
    const nsSide = `${PREFIX}${this.id}n${index}`;
    const address = `${this.subnet}.${index}`;
    recordNetns(ns);
    sh(['ip', 'netns', 'add', ns]);
    this.hosts.push(ns);
    sh(['ip', 'link', 'add', hostSide, 'type', 'veth', 'peer', 'name', nsSide]);
    sh(['ip', 'link', 'set', nsSide, 'netns', ns]);
    sh(['ip', 'link', 'set', hostSide, 'master', this.bridge, 'up']);
    sh(['ip', 'addr', 'add', `${address}/24`, 'dev', nsSide], { ns });
    sh(['ip', 'link', 'set', nsSide, 'up'], { ns });
    sh(['ip', 'link', 'set', 'lo', 'up'], { ns });
    if (somaxconn) sh(['sysctl', '-q', '-w', `net.core.somaxconn=${somaxconn}`], { ns });
    if (delayMs > 0) {
      // Half the delay each way: the pod's own side and the bridge side of its link.
      const half = `${delayMs / 2}ms`;
      for (const [dev, where] of [
        [hostSide, undefined],
        [nsSide, ns],
      ]) {
        const r = sh(['tc', 'qdisc', 'add', 'dev', dev, 'root', 'netem', 'delay', half], {
          ns: where,
          allowFail: true,
        });
        if (r.code !== 0)
          throw failure('nodeLatency needs tc netem, which this kernel lacks', r, { hint: 'set nodeLatency: 0ms' });
      }
    }
    return { ns, address };
  }

  somaxconnOf(ns) {
    return Number(sh(['sysctl', '-n', 'net.core.somaxconn'], { ns }).stdout.trim());
  }

  destroy() {
    for (const ns of this.hosts) sh(['ip', 'netns', 'del', ns], { allowFail: true });
    sh(['ip', 'link', 'del', this.bridge], { allowFail: true });
    this.hosts = [];
  }
}
