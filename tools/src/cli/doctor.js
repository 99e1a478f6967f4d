import { DEPENDENCIES, engineMissing, mark, probe } from '../exec/deps.js';
import { EXIT, InputError } from '../errors.js';
import { hint } from '../install.js';
import { sweepDeadRuns } from '../exec/registry.js';
import { deleteStaleClusters } from '../targets/kube/builtins.js';
import { busyLine, freeHostPorts } from '../targets/kube/host-ports.js';
import { daemonTmpdirs } from '../targets/kube/dockerd-tmpdir.js';

export const summary = 'List every external tool tailgate uses, its version, or how to install it';
export const usage = `Usage: tailgate doctor [--clean]

Exit code 0 when the local target can run (a load engine — k6 or vegeta — nginx and
haproxy present), 4 otherwise. A
pinned tool (k6, kind, helm) at another version than its pin is refused, naming both; a
version probe that does not answer in 10 s is stopped (SIGTERM, then SIGKILL) and named.
--clean: instead, remove what tailgate runs that have ended left on this machine — their
processes and network namespaces, and kind clusters named tailgate-* that no run still
alive here created (a CI job's teardown: it must not delete a concurrent job's cluster).
Exit code 0.`;
export const options = { clean: { type: 'boolean', default: false } };

const LOCAL_NEEDS = ['nginx', 'haproxy'];

export async function run(opts = {}, positionals = [], { probeDep = probe } = {}) {
  if (positionals.length) throw new InputError(`doctor takes no positional arguments\n\n${usage}`);
  if (opts.clean) {
    const swept = sweepDeadRuns();
    if (swept) console.log(swept);
    await deleteStaleClusters('tailgate-', console.log);
    return EXIT.OK;
  }
  const rows = await Promise.all(DEPENDENCIES.map((d) => probeDep(d)));
  const w = Math.max(...rows.map((r) => r.name.length));
  for (const r of rows) {
    let status;
    if (!r.path) status = `missing — ${r.install}`;
    else if (!r.version) status = `found at ${r.path} but not working: ${r.problem}`;
    else if (!r.ok) status = `${r.path} is ${r.problem} (PATH is searched before .tools/bin; run make setup)`;
    else status = `${r.version}  (${r.path})`;
    console.log(hint(`${mark(r, rows)} ${r.name.padEnd(w)}  ${status}   needed for: ${r.needed}`));
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
  // Either load engine runs a cell; one at another version than its pin is refused.
  const local = [
    ...rows.filter((r) => LOCAL_NEEDS.includes(r.name) && !r.ok).map((r) => r.name),
    ...engineMissing(rows),
    ...rows.filter((r) => r.engine && r.path && !r.ok).map((r) => r.name),
  ];
  if (local.length)
    console.log(hint(`\nThe local target cannot run: ${local.join(', ')} (see above). Run: make setup`));
  // A pinned tool at another version is refused whatever target needs it: it is what runs.
  const offPin = rows
    .filter((r) => r.pin && r.version && !r.ok && !r.engine && !LOCAL_NEEDS.includes(r.name))
    .map((r) => r.name);
  if (offPin.length) console.log(`\nRefused at another version than tailgate's pin: ${offPin.join(', ')} (see above).`);
  return local.length || offPin.length ? EXIT.INFRA : EXIT.OK;
}
