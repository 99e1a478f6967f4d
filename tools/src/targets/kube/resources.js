// Controller pods' CPU-seconds and memory over a run, read from their cgroups on
// the kind node containers (cgroup v1 or v2). On an existing cluster there is no
// node access: resources are left out (null) rather than estimated.
import { run } from '../../exec/run.js';
import { INGRESS_NAMESPACE } from './context.js';
import { round } from '../../numbers.js';

// Prints "<cpu-ns> <memory-bytes>" summed over the pod's cgroup directories.
const READ = `uid="$1"; u2=$(echo "$uid" | tr - _); cpu=0; mem=0
for d in $(find /sys/fs/cgroup -maxdepth 7 -type d \\( -name "*pod$uid*" -o -name "*pod$u2*" \\) 2>/dev/null); do
  if [ -f "$d/cpu.stat" ]; then c=$(awk 'BEGIN {u = 0} /^usage_usec/ {u = $2 * 1000} END {printf "%d", u}' "$d/cpu.stat"); cpu=$((cpu + c)); fi
  if [ -f "$d/cpuacct.usage" ]; then c=$(cat "$d/cpuacct.usage"); cpu=$((cpu + c)); fi
  for f in memory.current memory.usage_in_bytes; do [ -f "$d/$f" ] && { m=$(cat "$d/$f"); [ "$m" -gt "$mem" ] && mem=$m; }; done
done
echo "$cpu $mem"`;

/** kubectl listing a controller's pods (in its namespace, by its selector) as `jsonpath`. */
export function controllerPodsArgv({ kubectlFlags, podSelector, namespace = INGRESS_NAMESPACE }, jsonpath) {
  return ['kubectl', ...kubectlFlags, '-n', namespace, 'get', 'pods', '-l', podSelector, '-o', `jsonpath=${jsonpath}`];
}

export async function sampleControllerPods(args) {
  const pods = await run(controllerPodsArgv(args, '{range .items[*]}{.metadata.uid} {.spec.nodeName}{"\\n"}{end}'), {
    timeoutMs: 30_000,
  });
  if (pods.code !== 0) return null;
  let cpuNs = 0;
  let memBytes = 0;
  let found = 0;
  for (const line of pods.stdout.trim().split('\n').filter(Boolean)) {
    const [uid, node] = line.trim().split(' ');
    // A kind node is a container named like the node; seen only uniquely (the first
    // topmost directory wins, nested ones would double count).
    const r = await run(['docker', 'exec', node, 'sh', '-c', READ, 'sh', uid], { timeoutMs: 30_000 });
    if (r.code !== 0) continue;
    const [c, m] = r.stdout.trim().split(' ').map(Number);
    if (c > 0) found++;
    cpuNs += c;
    memBytes += m;
  }
  return found ? { cpuNs, memBytes, pods: found } : null;
}

export function resourceDelta(before, after) {
  if (!before || !after) return null;
  return {
    cpuSeconds: round((after.cpuNs - before.cpuNs) / 1e9),
    peakRssMiB: round(after.memBytes / 2 ** 20),
    pods: after.pods,
    source: 'cgroup on the kind node',
  };
}
