// What a package install needs to run a cell, from the package itself: the set-up
// scripts it ships (tools/scripts/setup.sh's `package` layer: OS packages and the pinned
// k6; tools/ci/install-kube-tools.sh: pinned kind and helm), installed into the package's
// own .tools/bin, where tailgate looks after PATH (exec/tools.js). Idempotent: the
// scripts check before they install.
import { join } from 'node:path';
import { DEPENDENCIES, K6_VERSION, engineMissing, mark, probe } from '../exec/deps.js';
import { EXIT, InputError } from '../errors.js';
import { runAttached } from '../exec/run.js';
import { ROOT } from '../exec/tools.js';
import { fromCheckout, hint } from '../install.js';
import { didYouMean } from '../nearest.js';

export const summary = 'Install what a cell needs (k6 and nginx/haproxy, or kind and helm), or --check it';
export const usage = `Usage: tailgate setup [--target local|kind] [--check]

Installs what running a cell on --target needs, idempotently, from this package's own
scripts, then lists each tool found (version and path) or missing:
  local  nginx (with its Lua module), haproxy, gnuplot: OS packages (apt-get, sudo where
         not root); a load engine: k6 ${K6_VERSION}'s release binary (checksum verified) where
         GitHub is reachable, and Vegeta (go install) — either runs a cell (docs/engines.md)
  kind   what local installs (one layer of setup.sh: k6, and gnuplot for the charts),
         then kind and helm at tailgate's pins (go install). docker and kubectl are
         checked, not installed: use your distribution's packages.
Pinned tools go to <package>/.tools/bin (tools/versions.json holds the pins).
--check: install nothing, only list.

A pinned tool (k6, kind, helm) found at another version is refused, naming the pin and
the version found: PATH is searched before .tools/bin, and what it finds is what every
later command runs. A version probe that does not answer in 10 s is stopped (SIGTERM,
then SIGKILL) and named.

Exit codes: 0 everything the target needs is there · 2 bad flag · 4 something is
missing, at another version than the pin, or an installer failed (what and why named)`;
export const options = {
  target: { type: 'string', default: 'local' },
  check: { type: 'boolean', default: false },
};

/** What each target needs on this machine, and the scripts that install it (in order). */
export const TARGETS = Object.freeze({
  local: {
    needs: ['k6', 'vegeta', 'nginx', 'haproxy', 'gnuplot'],
    steps: [['tools/scripts/setup.sh', 'package']],
  },
  kind: {
    needs: ['k6', 'vegeta', 'docker', 'kind', 'helm', 'kubectl'],
    steps: [['tools/scripts/setup.sh', 'package'], ['tools/ci/install-kube-tools.sh']],
  },
});

export async function run(opts, positionals, { probeDep = probe, exec = runStep } = {}) {
  if (positionals.length) throw new InputError(`setup takes no positional arguments\n\n${usage}`);
  const target = TARGETS[opts.target];
  if (!Object.hasOwn(TARGETS, opts.target))
    throw new InputError(
      `--target: "${String(opts.target).slice(0, 40)}" is not one of ${Object.keys(TARGETS).join(', ')}${didYouMean(opts.target, Object.keys(TARGETS))}`,
    );
  if (!opts.check)
    for (const [script, ...args] of target.steps) {
      const step = [script, ...args].join(' ');
      console.log(`==> ${step}`);
      const code = exec(join(ROOT, script), args);
      if (code !== 0) {
        console.error(`tailgate setup: ${step} failed (exit ${code}); its output is above`);
        return EXIT.INFRA;
      }
    }
  const rows = await Promise.all(DEPENDENCIES.filter((d) => target.needs.includes(d.name)).map((d) => probeDep(d)));
  const w = Math.max(...rows.map((r) => r.name.length));
  for (const r of rows) console.log(hint(`${mark(r, rows)} ${r.name.padEnd(w)}  ${status(r)}`));
  // The load engines: either will do (auto runs Vegeta where k6 is absent); one found
  // at another version than its pin is refused all the same, as it is what would run.
  const missing = [...rows.filter((r) => !r.path && !r.engine).map((r) => r.name), ...engineMissing(rows)];
  const refused = rows.filter((r) => r.path && !r.ok).map((r) => r.name);
  if (missing.length || refused.length) {
    const how = opts.check
      ? `${fromCheckout() ? '' : 'npx '}tailgate setup --target ${opts.target}`
      : 'the lines above';
    const what = [
      ...(missing.length ? [`missing ${missing.join(', ')}`] : []),
      ...(refused.length ? [`refused as found (not the pin, or not working): ${refused.join(', ')}`] : []),
    ];
    console.log(`\nThe ${opts.target} target cannot run yet: ${what.join('; ')} (see ${how}).`);
    return EXIT.INFRA;
  }
  console.log(`\nThe ${opts.target} target can run.`);
  return EXIT.OK;
}

function status(r) {
  if (!r.path) return `missing — ${r.install}`;
  if (!r.version) return `found at ${r.path} but not working: ${r.problem}`;
  if (!r.ok) return `${r.path} is ${r.problem}: it is what tailgate would run (PATH before .tools/bin)`;
  return `${r.version}  (${r.path})`;
}

// The installers print their own steps (what they found, what they installed) as they go.
function runStep(script, args) {
  return runAttached(['bash', script, ...args], { cwd: ROOT });
}
