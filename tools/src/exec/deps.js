// The external tools tailgate runs, how to read their versions and how to install
// them (doctor and the run preflight); where they are found is tools.js. A tool with a
// `pin` (tools/versions.json) found at another version is refused: what PATH resolves
// is what every later command runs, so a probe that only asks "is it there" would vouch
// for a binary tailgate never tested with.
import { readFileSync } from 'node:fs';
import { runBounded } from './bounded.js';
import { which } from './tools.js';
import { PINS } from '../version.js';

export const K6_VERSION = PINS.k6;
const VEGETA_MODULE = /mod\tgithub\.com\/tsenart\/vegeta\/v12\t(v[\d.]+)/;

/** A row's mark: ✓ works, ✗ missing or refused, · an absent engine the other stands in for. */
export function mark(r, rows) {
  if (r.ok) return '✓';
  return r.engine && !r.path && rows.some((o) => o.engine && o.ok) ? '·' : '✗';
}

/**
 * Of the load engines (k6, vegeta: `engine` rows), what a target lacks: 'k6 or vegeta' when
 * neither works, else nothing — an absent k6 is not missing where Vegeta runs.
 */
export function engineMissing(rows) {
  const engines = rows.filter((r) => r.engine);
  return engines.length && !engines.some((r) => r.ok) ? ['a load engine (k6 or vegeta)'] : [];
}

export const DEPENDENCIES = [
  {
    name: 'k6',
    args: ['version'],
    pattern: /k6 (v[\d.]+)/,
    pin: K6_VERSION,
    install: `its release binary (make setup downloads it, checksum verified, where GitHub is reachable); elsewhere tailgate runs Vegeta`,
    needed: 'all targets: k6 or vegeta',
    engine: true,
  },
  {
    name: 'vegeta',
    args: ['-version'],
    pattern: /Version: (v?\d[\d.]*)/,
    // A Vegeta built with `go install` prints an empty version (its release sets it at link
    // time); Go's build information inside the binary names the module's.
    versionFrom: (path) => VEGETA_MODULE.exec(readFileSync(path, 'latin1'))?.[1] ?? null,
    pin: PINS.vegeta,
    install: `make setup (go install github.com/tsenart/vegeta/v12@${PINS.vegeta} into .tools/bin)`,
    needed: 'all targets: k6 or vegeta',
    engine: true,
  },
  {
    name: 'nginx',
    args: ['-v'],
    pattern: /nginx\/([\d.]+)/,
    install: 'apt-get install nginx libnginx-mod-http-lua lua-resty-core',
    needed: 'local target',
  },
  {
    name: 'haproxy',
    args: ['-v'],
    pattern: /version ([\d.]+)/,
    install: 'apt-get install haproxy',
    needed: 'local target',
  },
  {
    name: 'gnuplot',
    args: ['--version'],
    pattern: /gnuplot ([\d.]+ patchlevel \d+)/,
    install: 'apt-get install gnuplot-nox',
    needed: 'charts',
  },
  {
    name: 'docker',
    args: ['version', '--format', '{{.Server.Version}}'],
    pattern: /^([\d.]+)/,
    install: 'apt-get install docker.io, then start dockerd',
    needed: 'kind target',
  },
  {
    name: 'kind',
    args: ['version'],
    pattern: /kind (v[\d.]+)/,
    pin: PINS.kind,
    install: `go install sigs.k8s.io/kind@${PINS.kind} (no image registry reachable: build the node image locally and set TAILGATE_KIND_NODE_IMAGE to it — docs/targets.md)`,
    needed: 'kind target',
  },
  {
    name: 'helm',
    args: ['version', '--short'],
    pattern: /(v[\d.]+)/,
    pin: PINS.helm,
    install: `https://helm.sh/docs/intro/install/ (or go install helm.sh/helm/v3/cmd/helm@${PINS.helm})`,
    needed: 'kind and cluster targets',
  },
  {
    name: 'kubectl',
    args: ['version', '--client'],
    pattern: /Client Version: (v[\d.]+)/,
    install: 'go install k8s.io/kubernetes/cmd/kubectl or your distribution package',
    needed: 'kind and cluster targets',
  },
];

/** Where dep is found and what it says: {...dep, path, version, ok, problem}. ok only when
 *  its version is read and, for a pinned tool, is the pin. A probe that does not answer
 *  within timeoutMs is stopped (SIGTERM, then SIGKILL after graceMs) and said so. */
export async function probe(dep, { timeoutMs = 10_000, graceMs = 2_000 } = {}) {
  const path = which(dep.name);
  if (!path) return { ...dep, path: null, version: null, ok: false };
  // Some tools print their version on stderr (nginx -v), some exit non-zero when a
  // server half is missing (docker): read both streams, judge by the pattern.
  const r = await runBounded(path, dep.args, { timeoutMs, graceMs });
  if (r.stopped) return { ...dep, path, version: null, ok: false, problem: unanswered(dep, r, timeoutMs, graceMs) };
  const version = dep.pattern.exec(r.output)?.[1] ?? versionFrom(dep, path);
  if (!version) return { ...dep, path, version, ok: false, problem: firstLine(r.output) || `exit ${r.code}` };
  if (dep.pin && version !== dep.pin)
    return { ...dep, path, version, ok: false, problem: `${version}, but tailgate pins ${dep.pin}` };
  return { ...dep, path, version, ok: true };
}

function unanswered(dep, r, timeoutMs, graceMs) {
  const how =
    r.stopped === 'SIGKILL'
      ? `it ignored SIGTERM and was killed (SIGKILL) after ${graceMs / 1000} s more`
      : 'stopped with SIGTERM';
  return `\`${[dep.name, ...dep.args].join(' ')}\` did not answer within ${timeoutMs / 1000} s: ${how}`;
}

function versionFrom(dep, path) {
  try {
    return dep.versionFrom?.(path) ?? null;
  } catch {
    return null;
  }
}

function firstLine(s) {
  return s.trim().split('\n')[0];
}
