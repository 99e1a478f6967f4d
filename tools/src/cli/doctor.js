import { DEPENDENCIES, K6_VERSION, probe } from '../exec/deps.js';
import { EXIT } from '../errors.js';
import { sweepDeadRuns } from '../exec/registry.js';
import { deleteStaleClusters } from '../targets/kube/builtins.js';
import { busyLine, freeHostPorts } from '../targets/kube/host-ports.js';
import { daemonTmpdirs } from '../targets/kube/dockerd-tmpdir.js';

export const summary = 'List every external tool tailgate uses, its version, or how to install it';
export const usage = `Usage: tailgate doctor [--clean]

Exit code 0 when the local target can run (k6, nginx, haproxy present), 4 otherwise.
--clean: instead, remove what tailgate runs that have ended left on this machine — their
processes and network namespaces, and kind clusters named tailgate-* that no run still
alive here created (a CI job's teardown: it must not delete a concurrent job's cluster).
Exit code 0.`;
export const options = { clean: { type: 'boolean', default: false } };

const LOCAL_NEEDS = ['k6', 'nginx', 'haproxy'];

export async function run(opts = {}) {
  if (opts.clean) {
    const swept = sweepDeadRuns();
    if (swept) console.log(swept);
    await deleteStaleClusters('tailgate-', console.log);
    return EXIT.OK;
  }
  const rows = DEPENDENCIES.map(probe);
  const w = Math.max(...rows.map((r) => r.name.length));
  for (const r of rows) {
    let status;
    if (!r.path) status = `missing — ${r.install}`;
    else if (!r.version) status = `found at ${r.path} but not working: ${r.problem}`;
    else status = `${r.version}  (${r.path})`;
    if (r.name === 'k6' && r.version && r.version !== K6_VERSION)
      status += `  [tailgate pins ${K6_VERSION}; run make setup]`;
    console.log(`${r.path && r.version ? '✓' : '✗'} ${r.name.padEnd(w)}  ${status}   needed for: ${r.needed}`);
  }
  // kind publishes a duet's two ingresses here; a run moves past busy ones (host-ports.js).
  const hp = await freeHostPorts(2);
  console.log(
    hp.busy.length
      ? `! kind ${busyLine(hp, 'kind runs take')}`
      : `✓ kind host ports ${hp.ports.join(', ')} free on 127.0.0.1`,
  );
  for (const d of daemonTmpdirs().filter((x) => !x.exists))
    console.log(
      `! ${d.name} (pid ${d.pid}) was started with TMPDIR=${d.dir}, which is gone: kind nodes cannot start (a kind run makes it again)`,
    );
  const missing = rows.filter((r) => LOCAL_NEEDS.includes(r.name) && !r.version);
  if (missing.length) {
    console.log(`\nThe local target cannot run: missing ${missing.map((r) => r.name).join(', ')}. Run: make setup`);
    return EXIT.INFRA;
  }
  return EXIT.OK;
}
