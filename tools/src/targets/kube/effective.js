// What the controller's data plane really runs, read from its pod right before load
// (controller.yaml `effectiveConfig`: a command run inside the pod, `args` for a
// controller configured by flags, or `portForward` + `path` for an admin API that only
// the pod can reach), kept as <cell>/proxy/<file> beside the results so
// report/effective-config.js can diff tunings. Best effort: a controller without the
// command, or a pod that does not answer, leaves a note instead of failing the cell.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { INGRESS_NAMESPACE } from './context.js';
import { run, runToFile } from '../../exec/run.js';
import { getBounded, withPortForward } from './port-forward.js';

export async function captureEffectiveConfig({
  kubectlFlags,
  podSelector,
  spec,
  cellDir,
  namespace = INGRESS_NAMESPACE,
  dirName = 'proxy',
}) {
  if (!spec) return null;
  const dir = join(cellDir, dirName);
  mkdirSync(dir, { recursive: true });
  const kubectl = (...a) => ['kubectl', ...kubectlFlags, '-n', namespace, ...a];
  const pod = await run(
    kubectl(
      'get',
      'pods',
      '-l',
      podSelector,
      '--field-selector=status.phase=Running',
      '-o',
      'jsonpath={.items[0].metadata.name}',
    ),
    { timeoutMs: 30_000 },
  );
  const name = pod.stdout.trim();
  if (pod.code !== 0 || !name) return note(dir, `no running pod for ${podSelector}`);
  // stdout alone, byte for byte, into the file: kubectl's own warnings (stderr) are not
  // configuration, and an nginx -T of ingress-nginx is larger than any output tail.
  const file = join(dir, spec.file);
  const r = spec.portForward
    ? await adminGet(kubectl, name, spec, dir, file)
    : await runToFile(
        spec.args
          ? kubectl('get', 'pod', name, '-o', 'jsonpath={range .spec.containers[0].args[*]}{@}{"\\n"}{end}')
          : kubectl('exec', name, '--', ...spec.exec),
        file,
        { timeoutMs: 60_000 },
      );
  if (r.code !== 0) {
    rmSync(file, { force: true });
    return note(dir, `could not read the effective configuration (${r.why ?? `exit ${r.code}`})`);
  }
  const somaxconn = await readSomaxconn(kubectl, name);
  if (somaxconn) writeFileSync(join(dir, 'sysctls.txt'), `net.core.somaxconn=${somaxconn}\n`);
  const resources = await readResources(kubectl, name);
  if (resources) writeFileSync(join(dir, 'pod.txt'), resources);
  return file;
}

// The pod's CPU and memory requests and limits, per container, as `<container>.<limits|
// requests>.<cpu|memory>=<value>` lines: a values change that caps the proxy's CPU leaves
// its configuration file alone, and a duet must still name it as the head's change.
async function readResources(kubectl, pod) {
  const r = await run(kubectl('get', 'pod', pod, '-o', 'jsonpath={.spec.containers}'), { timeoutMs: 30_000 });
  if (r.code !== 0) return null;
  let containers;
  try {
    containers = JSON.parse(r.stdout);
  } catch {
    return null;
  }
  const lines = [];
  for (const c of Array.isArray(containers) ? containers.slice(0, 16) : [])
    for (const kind of ['requests', 'limits'])
      for (const res of ['cpu', 'memory']) {
        const v = c?.resources?.[kind]?.[res];
        if (typeof v === 'string' && /^[\w.]{1,32}$/.test(v) && /^[\w.-]{1,63}$/.test(c.name))
          lines.push(`${c.name}.${kind}.${res}=${v}`);
      }
  return lines.length ? `${lines.join('\n')}\n` : '';
}

// The accept backlog a tuning asks for is a pod sysctl, invisible in the proxy's
// config: read from /proc where the image has cat; where it has none (distroless
// Envoy), from the pod's securityContext — a running pod got what it asked for (the
// kubelet rejects the pod otherwise: SysctlForbidden).
async function readSomaxconn(kubectl, pod) {
  const cat = await run(kubectl('exec', pod, '--', 'cat', '/proc/sys/net/core/somaxconn'), { timeoutMs: 30_000 });
  if (cat.code === 0 && /^\d+\s*$/.test(cat.stdout)) return cat.stdout.trim();
  const asked = await run(
    kubectl('get', 'pod', pod, '-o', 'jsonpath={.spec.securityContext.sysctls[?(@.name=="net.core.somaxconn")].value}'),
    { timeoutMs: 30_000 },
  );
  return asked.code === 0 && /^\d+$/.test(asked.stdout.trim()) ? asked.stdout.trim() : null;
}

async function adminGet(kubectl, pod, spec, dir, file) {
  try {
    const body = await withPortForward(
      { kubectl, pod, port: spec.portForward, logFile: join(dir, 'port-forward.log') },
      (port) => getBounded(`http://127.0.0.1:${port}${spec.path}`),
    );
    writeFileSync(file, body);
    return { code: 0 };
  } catch (err) {
    return { code: 1, why: err.message };
  }
}

function note(dir, message) {
  writeFileSync(join(dir, 'effective-config.txt'), `${message}\n`);
  return null;
}
