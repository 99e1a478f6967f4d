// Where tailgate finds its external tools: PATH first (the Makefile puts the
// project-local .tools/bin, where `make setup` installs the pinned k6, kind and helm,
// at its front; tests put fake executables there), then .tools/bin as a fallback.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PINS } from './version.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const LOCAL_BIN = join(ROOT, '.tools', 'bin');
export const K6_VERSION = PINS.k6;

export const DEPENDENCIES = [
  { name: 'k6', args: ['version'], pattern: /k6 (v[\d.]+)/, install: `make setup (go install go.k6.io/k6@${K6_VERSION} into .tools/bin)`, needed: 'all targets' },
  { name: 'nginx', args: ['-v'], pattern: /nginx\/([\d.]+)/, install: 'apt-get install nginx libnginx-mod-http-lua lua-resty-core', needed: 'local target' },
  { name: 'haproxy', args: ['-v'], pattern: /version ([\d.]+)/, install: 'apt-get install haproxy', needed: 'local target' },
  { name: 'gnuplot', args: ['--version'], pattern: /gnuplot ([\d.]+ patchlevel \d+)/, install: 'apt-get install gnuplot-nox', needed: 'charts' },
  { name: 'docker', args: ['version', '--format', '{{.Server.Version}}'], pattern: /^([\d.]+)/, install: 'apt-get install docker.io, then start dockerd', needed: 'kind target' },
  { name: 'kind', args: ['version'], pattern: /kind (v[\d.]+)/, install: `go install sigs.k8s.io/kind@${PINS.kind} (offline: ../shared/offline-kind)`, needed: 'kind target' },
  { name: 'helm', args: ['version', '--short'], pattern: /(v[\d.]+)/, install: `https://helm.sh/docs/intro/install/ (or go install helm.sh/helm/v3/cmd/helm@${PINS.helm})`, needed: 'kind and cluster targets' },
  { name: 'kubectl', args: ['version', '--client'], pattern: /Client Version: (v[\d.]+)/, install: 'go install k8s.io/kubernetes/cmd/kubectl or your distribution package', needed: 'kind and cluster targets' },
];

export function toolEnv(extra = {}) {
  return { ...process.env, PATH: `${process.env.PATH}${delimiter}${LOCAL_BIN}`, ...extra };
}

export function which(name) {
  for (const dir of [...(process.env.PATH ?? '').split(delimiter), LOCAL_BIN, '/usr/sbin', '/sbin']) {
    const p = join(dir, name);
    if (dir && existsSync(p)) return p;
  }
  return null;
}

export function probe(dep) {
  const path = which(dep.name);
  if (!path) return { ...dep, path: null, version: null };
  // Some tools print their version on stderr (nginx -v), some exit non-zero when a
  // server half is missing (docker): read both streams, judge by the pattern.
  const r = spawnSync(path, dep.args, { encoding: 'utf8', timeout: 10_000 });
  const text = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  const version = dep.pattern.exec(text)?.[1] ?? null;
  return { ...dep, path, version, problem: version ? undefined : firstLine(text) || String(r.error?.message ?? `exit ${r.status}`) };
}

function firstLine(s) {
  return s.trim().split('\n')[0];
}
