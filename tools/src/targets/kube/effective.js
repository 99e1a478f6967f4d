// What the controller's data plane really runs, read from its pod right before load
// (controller.yaml `effectiveConfig`: a command run inside the pod, or `args` for a
// controller configured by flags), kept as <cell>/proxy/<file> beside the results so
// report/effective-config.js can diff tunings. Best effort: a controller without the
// command, or a pod that does not answer, leaves a note instead of failing the cell.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { INGRESS_NAMESPACE } from './context.js';
import { run } from '../../exec/run.js';

export async function captureEffectiveConfig({ kubectlFlags, podSelector, spec, cellDir }) {
  if (!spec) return null;
  const dir = join(cellDir, 'proxy');
  mkdirSync(dir, { recursive: true });
  const kubectl = (...a) => ['kubectl', ...kubectlFlags, '-n', INGRESS_NAMESPACE, ...a];
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
  const name = pod.output.trim();
  if (pod.code !== 0 || !name) return note(dir, `no running pod for ${podSelector}`);
  const r = spec.args
    ? await run(kubectl('get', 'pod', name, '-o', 'jsonpath={range .spec.containers[0].args[*]}{@}{"\\n"}{end}'), {
        timeoutMs: 30_000,
      })
    : await run(kubectl('exec', name, '--', ...spec.exec), { timeoutMs: 60_000 });
  if (r.code !== 0) return note(dir, `could not read the effective configuration (exit ${r.code})`);
  const file = join(dir, spec.file);
  writeFileSync(file, r.output);
  // The accept backlog a tuning asks for is a pod sysctl, invisible in the proxy's
  // config: read it where the image has cat (not in FROM-scratch images).
  const somaxconn = await run(kubectl('exec', name, '--', 'cat', '/proc/sys/net/core/somaxconn'), {
    timeoutMs: 30_000,
  });
  if (somaxconn.code === 0 && /^\d+\s*$/.test(somaxconn.output))
    writeFileSync(join(dir, 'sysctls.txt'), `net.core.somaxconn=${somaxconn.output.trim()}\n`);
  return file;
}

function note(dir, message) {
  writeFileSync(join(dir, 'effective-config.txt'), `${message}\n`);
  return null;
}
