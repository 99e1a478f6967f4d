// Pod sysctls a tuning sets that the kubelet must allow: outside the kubelet's safe set
// (v1.33) a pod asking for one is rejected with SysctlForbidden unless the node's
// kubelet lists it in allowedUnsafeSysctls. Checked before the install, from the
// kubelet's own configuration (configz), so a user's cluster fails in seconds with
// what to change instead of after a 5-minute rollout wait.
import { parse } from 'yaml';
import { InfraError, InputError } from '../../errors.js';
import { readTextFile } from '../../result/read.js';
import { commandLine } from '../../exec/command.js';
import { run } from '../../exec/run.js';

// pkg/kubelet/sysctl/safe_sysctls.go at v1.33.
const SAFE = new Set([
  'kernel.shm_rmid_forced',
  'net.ipv4.ip_local_port_range',
  'net.ipv4.tcp_syncookies',
  'net.ipv4.ping_group_range',
  'net.ipv4.ip_unprivileged_port_start',
  'net.ipv4.ip_local_reserved_ports',
  'net.ipv4.tcp_keepalive_time',
  'net.ipv4.tcp_fin_timeout',
  'net.ipv4.tcp_keepalive_intvl',
  'net.ipv4.tcp_keepalive_probes',
  'net.ipv4.tcp_rmem',
  'net.ipv4.tcp_wmem',
]);

/** Unsafe sysctl names set anywhere under a `sysctls:` list in the given values files. */
export function unsafeSysctls(files) {
  const names = new Set();
  const walk = (x, key) => {
    if (Array.isArray(x)) {
      for (const item of x) {
        if (key === 'sysctls' && typeof item?.name === 'string') names.add(item.name);
        else walk(item);
      }
    } else if (x && typeof x === 'object') for (const [k, v] of Object.entries(x)) walk(v, k);
  };
  for (const f of files) walk(readValues(f));
  return [...names].filter((n) => !SAFE.has(n)).sort();
}

// A values file is a chart's settings: a few KB (ours are under 4 KB, a chart's whole
// default values.yaml under 100 KB); its aliases are expanded on a budget as bench.yaml's.
export const MAX_VALUES_BYTES = 1 << 20;

function readValues(file) {
  const text = readTextFile(file, { maxBytes: MAX_VALUES_BYTES, follow: true });
  try {
    return parse(text, { maxAliasCount: 100 });
  } catch (err) {
    throw new InputError(`${file}: not a values file (${err.message.split('\n')[0].slice(0, 120)})`);
  }
}

// allowedUnsafeSysctls entries are names or prefixes ending in `*` (net.core.*).
const allows = (allowed, name) =>
  allowed.some((a) => a === name || (a.endsWith('*') && name.startsWith(a.slice(0, -1))));

/** Throws InfraError when a node the controller may run on does not allow `names`. */
export async function checkKubeletSysctls(kubectl, names, { tuning, log = () => {} } = {}) {
  const list = async (selector) => {
    const r = await run(kubectl('get', 'nodes', ...selector, '-o', 'jsonpath={.items[*].metadata.name}'), {
      timeoutMs: 30_000,
    });
    return r.code === 0 ? r.stdout.trim().split(/\s+/).filter(Boolean) : [];
  };
  // The catalog's values put the controller on the node labelled ingress-ready=true.
  let nodes = await list(['-l', 'ingress-ready=true']);
  if (!nodes.length) nodes = await list([]);
  const refused = [];
  for (const node of nodes) {
    const argv = kubectl('get', '--raw', `/api/v1/nodes/${node}/proxy/configz`);
    const r = await run(argv, { timeoutMs: 30_000 });
    let allowed;
    try {
      allowed = r.code === 0 ? (JSON.parse(r.stdout).kubeletconfig?.allowedUnsafeSysctls ?? []) : null;
    } catch {
      allowed = null;
    }
    if (!allowed) {
      log(
        `  cannot read node ${node}'s kubelet configuration (${r.output.trim().split('\n').at(-1) || 'not JSON'}): sysctls not checked there`,
      );
      continue;
    }
    const missing = names.filter((n) => !allows(allowed, n));
    if (missing.length) refused.push({ node, missing, argv });
  }
  if (!refused.length) return;
  const [first] = refused;
  throw new InfraError(
    `tuning "${tuning}" sets ${first.missing.join(', ')} on the controller's pods, which the kubelet of node ${first.node}${refused.length > 1 ? ` (and ${refused.length - 1} more)` : ''} does not allow: the pods would be rejected with SysctlForbidden`,
    {
      details: [
        `command: ${commandLine(first.argv)}`,
        `allow it in every such node's KubeletConfiguration (allowedUnsafeSysctls: [${first.missing.join(', ')}]; clusters/single.yaml shows it for kind), or run a tuning without it`,
      ],
    },
  );
}
