// The external tools tailgate runs, how to read their versions and how to install
// them (doctor and the run preflight); where they are found is tools.js.
import { runSync } from './run.js';
import { which } from './tools.js';
import { PINS } from '../version.js';

export const K6_VERSION = PINS.k6;

export const DEPENDENCIES = [
  {
    name: 'k6',
    args: ['version'],
    pattern: /k6 (v[\d.]+)/,
    install: `its release binary (make setup downloads it, checksum verified, where GitHub is reachable); elsewhere tailgate runs Vegeta`,
    needed: 'all targets',
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
    install: `go install sigs.k8s.io/kind@${PINS.kind} (no image registry reachable: build the node image locally and pass --image)`,
    needed: 'kind target',
  },
  {
    name: 'helm',
    args: ['version', '--short'],
    pattern: /(v[\d.]+)/,
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

export function probe(dep) {
  const path = which(dep.name);
  if (!path) return { ...dep, path: null, version: null };
  // Some tools print their version on stderr (nginx -v), some exit non-zero when a
  // server half is missing (docker): read both streams, judge by the pattern.
  const r = runSync([path, ...dep.args], { timeoutMs: 10_000 });
  const version = dep.pattern.exec(r.output)?.[1] ?? null;
  return { ...dep, path, version, problem: version ? undefined : firstLine(r.output) || `exit ${r.code}` };
}

function firstLine(s) {
  return s.trim().split('\n')[0];
}
