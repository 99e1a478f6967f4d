// A starter bench.yaml for a repository that adopts tailgate: the local matrix (real
// nginx/HAProxy on this machine, `make bench`-style) and a `pr` matrix for one catalog
// controller on kind — a duet where the controller's catalog entry supports one, else base
// and head interleaved — with the gate's defaults, and a copy of the controller's catalog
// values that bench.yaml names (a PR then has a value to change). Never overwrites a file.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadBench } from '../config/load.js';
import { estimateCost } from '../plan/cost.js';
import { planMatrix } from '../plan/plan.js';
import { InputError } from '../errors.js';
import { hint, schemaRef } from '../install.js';
import { makeDirIn, writeTextAtomic } from '../result/write.js';
import { BENCH_RUNNER, EXTRA_WORKFLOWS, dependabotText, usesRef, workflowFiles } from './init-workflows.js';
import { PACKAGE_ROOT, packageSource } from '../release-ref.js';
import { CATALOG_DIR, readCatalogFile } from '../registry/catalog.js';
import { didYouMean } from '../nearest.js';
import { ignoreResults, mergeNightly, nightlyMatrixText, nightlyProfileText } from './init-merge.js';

export const summary =
  'Write a starter bench.yaml, the controller values file it names and the PR workflows for a catalog controller (never overwrites)';
export const usage = `Usage: tailgate init [--controller traefik] [--dir .] [--repository owner/name] [--ref v0]
                     [--with dispatch,nightly]

Writes <dir>/bench.yaml and, where absent, <dir>/<controller>-values.yaml (the catalog's
values for its chart, which bench.yaml names: a PR changes a value there),
<dir>/.github/workflows/tailgate.yml (one gate per matrix: pr, pr-failover, pr-routes)
and tailgate-comment.yml (their comments and check runs). bench.yaml: a local matrix
(real nginx and HAProxy on this machine) and, for the chosen controller on kind, "pr"
(steady load), "pr-failover" (pods killed under load) and "pr-routes" (routes added,
changed and removed under load), each its own job: a duet (the base's and the head's
configuration as two releases in one cluster, in front of the same pods, under one k6)
where the controller supports one, else base and head interleaved.
The workflows call tailgate's reusable workflows at the repository and ref of the package
this runs from: package.json's repository, and the tag its release moves (v0 for 0.x,
v1 for 1.x). --repository (a fork) and --ref (a commit SHA, to pin one) override them.
--with adds the other two uses, as thin callers of tailgate's reusable workflows:
  dispatch  .github/workflows/tailgate-dispatch.yml — a manual run from the Actions tab
            (matrix, controllers, tunings, scenarios, rate, duration, repetitions,
            compare against baselines, open a baseline PR)
  nightly   .github/workflows/tailgate-nightly.yml — every night on your self-hosted
            runner labelled ${BENCH_RUNNER}, with history, change points and the page;
            bench.yaml gets its profile (${BENCH_RUNNER}) and a nightly matrix
Where bench.yaml exists (a repository that adopted tailgate), --with adds those uses to it:
each one's workflow file where absent and, for nightly, the profile and matrix merged into
bench.yaml as added lines (refused, nothing written, where they would not fit or validate).
<dir>/.gitignore gets results/ (what local runs write) unless it ignores it already.
Controllers: ${catalog().join(', ')} (duet: ${catalog()
  .filter((n) => duetCapable(n))
  .join(', ')})`;
export const options = {
  controller: { type: 'string', default: 'traefik' },
  dir: { type: 'string', default: '.' },
  repository: { type: 'string' },
  ref: { type: 'string' },
  with: { type: 'string' },
};

function duetCapable(name) {
  return Boolean(readCatalogFile(join(CATALOG_DIR, name, 'controller.yaml')).duet);
}

function catalog() {
  return readdirSync(CATALOG_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}

export function run(opts) {
  const name = opts.controller;
  if (!catalog().includes(name))
    throw new InputError(
      `--controller: "${name}" is not in the catalog; choose from ${catalog().join(', ')}${didYouMean(name, catalog())}`,
    );
  const entry = readCatalogFile(join(CATALOG_DIR, name, 'controller.yaml'));
  const source = callSource(opts);
  const extra = withOption(opts.with);
  const file = join(opts.dir, 'bench.yaml');
  // An adopted repository: --with adds its uses to what is there, and nothing else.
  if (existsSync(file)) return addUses(opts, file, extra, source);
  // The values first: bench.yaml names them, and loading it checks they are there.
  const valuesName = `${name}-values.yaml`;
  const values = join(opts.dir, valuesName);
  if (existsSync(values)) console.log(`${values}: kept (exists; bench.yaml names it as ${name}'s values)`);
  else {
    writeTextAtomic(values, valuesText(name, entry), { root: opts.dir });
    console.log(`${values}: written (the catalog's values for chart ${entry.chart.name} ${entry.chart.version})`);
  }
  const text = benchText(name, entry, valuesName, schemaRef(opts.dir), { nightly: extra.includes('nightly') });
  writeTextAtomic(file, text);
  const cfg = loadBench(file); // what init writes must validate
  const minutes = (m) => Math.round(estimateCost(planMatrix(cfg, m), { cfg, oneProcess: true }).longestJobS / 60);
  console.log(`${file}: written (controller ${name}, chart ${entry.chart.version})`);
  // The wiring the verdict of record makes safe: each matrix its own gate (docs/workflows.md).
  const gates = ['pr', 'pr-failover', 'pr-routes'];
  const wf = makeDirIn(opts.dir, join(opts.dir, '.github', 'workflows'));
  const matrices = ['local', ...gates, ...(extra.includes('nightly') ? ['nightly'] : [])];
  for (const [f, text] of Object.entries(workflowFiles(gates, source, { extra, matrices })))
    writeWorkflow(join(wf, f), text, opts.dir, source);
  console.log(ignoreResults(opts.dir));
  writeDependabot(opts.dir, source);
  const unpinned = pinWarning(source);
  if (unpinned) console.log(unpinned);
  // Each gate its own job: side by side, the PR waits for the longest (plan's estimate,
  // with every optional pair run).
  const each = gates.map((g) => `${g} ≤ ${minutes(g)}`);
  console.log(
    `the gates take about ${each.join(', ')} min on a 2-core runner (plan's estimate, every optional pair run); they run side by side, so a PR waits about ${Math.max(...gates.map(minutes))} min`,
  );
  console.log(
    `next: 1. try it here: npx tailgate setup, npx tailgate validate, npx tailgate run --matrix local  2. commit bench.yaml, ${valuesName} and .github/ on a branch  3. open the PR: its base has no bench.yaml, so its gates run its head alone and pass as "tailgate adopted: the next PR is compared with this one" (in each gate's job summary; no comment yet — tailgate-comment.yml reaches the default branch with this PR)  4. merge it; the next PR — change a value in ${valuesName} — is compared with its base, commented, and gets the check runs  5. then make the check runs ${gates.map((g) => (g === 'pr' ? '"tailgate"' : `"tailgate (${g})"`)).join(' and ')} required`,
  );
  useHints(extra);
  return 0;
}

// init --with where bench.yaml exists (a repository that adopted tailgate): each use's
// workflow file where absent and, for the nightly, its profile and matrix merged into
// bench.yaml (init-merge.js); bench.yaml otherwise, the values and the gates stay as they are.
function addUses(opts, file, extra, source) {
  if (!extra.length)
    throw new InputError(
      `${file} exists; tailgate init never overwrites (edit it, or init into another --dir); to add a use to it: --with ${Object.keys(EXTRA_WORKFLOWS).join(',')}`,
    );
  if (extra.includes('nightly')) for (const line of mergeNightly(file)) console.log(line);
  const texts = workflowFiles([], source, { extra, matrices: Object.keys(loadBench(file).matrices) });
  const wf = makeDirIn(opts.dir, join(opts.dir, '.github', 'workflows'));
  for (const use of extra) writeWorkflow(join(wf, EXTRA_WORKFLOWS[use]), texts[EXTRA_WORKFLOWS[use]], opts.dir, source);
  console.log(ignoreResults(opts.dir));
  useHints(extra);
  return 0;
}

// A workflow file where absent; an existing one is the adopter's.
function writeWorkflow(path, text, dir, source) {
  if (existsSync(path)) console.log(hint(`${path}: kept (exists; see docs/workflows.md for the gates it should call)`));
  else {
    writeTextAtomic(path, text, { root: dir });
    console.log(`${path}: written (calls ${source.repository}@${usesRef(source)})`);
  }
}

// What each added use still needs from the adopter.
function useHints(extra) {
  // They name tailgate's docs: pages on GitHub from a package (install.js hint).
  const say = (line) => console.log(hint(line));
  if (extra.includes('dispatch'))
    say(
      'manual runs: Actions → tailgate-dispatch → Run workflow, once tailgate-dispatch.yml is on the default branch; for a baseline PR whose required checks arrive, set a GitHub App (variable TAILGATE_APP_ID, secret TAILGATE_APP_KEY) or a fine-grained token (secret TAILGATE_BASELINE_PR_TOKEN): docs/adopting.md, Baselines',
    );
  if (extra.includes('nightly'))
    say(
      `nightly: register a self-hosted runner labelled ${BENCH_RUNNER} (docs/adopting.md, self-hosted runners), set the ${BENCH_RUNNER} profile's maxRate in bench.yaml to what its k6 carries, and protect the tailgate-history branch. The machine is guarded only as far as you set it up: GitHub creates the ${BENCH_RUNNER} environment unprotected — Settings → Environments → ${BENCH_RUNNER} → Required reviewers (each run waits for one) and Deployment branches: the default branch; the nightly refuses another branch's bench.yaml on the machine unless allow-other-branches: true`,
    );
}

// --with: which of the other two uses to add. Checked before any file is written.
function withOption(value) {
  const valid = Object.keys(EXTRA_WORKFLOWS);
  const names = String(value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const n of names)
    if (!valid.includes(n))
      throw new InputError(
        `--with: "${n.slice(0, 40)}" is not one of ${valid.join(', ')} (comma-separated: --with ${valid.join(',')})${didYouMean(n, valid)}`,
      );
  return [...new Set(names)];
}

// Where the written workflows call tailgate: this package's repository at its release's
// commit where the package names one, else at the tag its release moved (release-ref.js),
// unless the flags say otherwise. Checked before any file is written: a `uses:` that
// cannot parse fails only on the adopter's first PR.
function callSource(opts) {
  const own = packageSource();
  const repository = opts.repository ?? own.repository;
  if (!repository)
    throw new InputError('--repository: this package.json names no GitHub repository; pass --repository owner/name');
  if (!/^[A-Za-z0-9-]+\/[A-Za-z0-9._-]+$/.test(repository))
    throw new InputError(`--repository: "${repository}" is not owner/name (tailgate-dev/tailgate)`);
  const ref = opts.ref ?? own.ref;
  if (!/^[A-Za-z0-9._/-]+$/.test(ref) || ref.startsWith('-') || ref.includes('..'))
    throw new InputError(`--ref: "${ref}" is not a tag, branch or commit SHA (v0, a 40-hex SHA)`);
  // GitHub resolves a `uses:` commit only by its full SHA; "abc1234" would be read as a name.
  if (/^[0-9a-f]{7,39}$/.test(ref))
    throw new InputError(`--ref: "${ref}" looks like a short commit SHA; a \`uses:\` names a commit by its 40-hex SHA`);
  // The release's commit, with its tag as the comment, unless the flags point elsewhere.
  const mine = repository === own.repository && (opts.ref === undefined || opts.ref === own.release?.commit);
  return { repository, ref, release: mine ? own.release : null };
}

// A `uses:` that names no fixed commit, said in one line with how to pin one: the package
// knows its release's commit only when the release packed it (release-ref.js), and its
// CHANGELOG says whether any release was made as of this package.
function pinWarning({ repository, ref, release }) {
  if (release || /^[0-9a-f]{40}$/.test(ref)) return null;
  const changelog = join(PACKAGE_ROOT, 'CHANGELOG.md');
  // No CHANGELOG to read (a trimmed copy): whether a release exists is not said.
  const released = !existsSync(changelog) || /^## \d+\.\d+\.\d+/m.test(readFileSync(changelog, 'utf8'));
  const none = released ? '' : ` — and tailgate has no release yet, so ${ref} resolves to nothing until its first`;
  return `warning: this tailgate (${packageSource().version}, not a packed release) knows no release commit: the workflows call ${repository}@${ref}, which moves${none}; to pin a commit: init --ref <40-hex sha> (git ls-remote https://github.com/${repository} HEAD prints the default branch's)`;
}

// The Dependabot entry that keeps the one pin current; an existing file is the adopter's.
function writeDependabot(dir, source) {
  const path = join(makeDirIn(dir, join(dir, '.github')), 'dependabot.yml');
  if (existsSync(path))
    console.log(
      `${path}: kept (exists; add a package-ecosystem: github-actions entry with directory: / so that tailgate's pin is kept current)`,
    );
  else {
    writeTextAtomic(path, dependabotText(source), { root: dir });
    console.log(`${path}: written (Dependabot proposes each release of ${source.repository}'s workflows)`);
  }
}

// `values:` replaces the catalog's values.yaml, so the adopter's copy starts as that file
// (it keeps the kind plumbing: hostPort, service, rollout), its origin said on top.
function valuesText(name, entry) {
  const catalogValues = readFileSync(join(CATALOG_DIR, name, 'values.yaml'), 'utf8');
  return `# tailgate's catalog values for chart ${entry.chart.name} ${entry.chart.version} (charts/controllers/${name}/values.yaml): edit them in a PR to test a change.\n${catalogValues}`;
}

// The bench.yaml init writes: the local matrix, the pr matrix (a duet where the catalog
// entry says how two releases coexist) and the route cell as a matrix of its own.
// schema: where the package's bench schema is for this file's folder (install.js schemaRef).
// nightly: the self-hosted machine's profile and the nightly matrix (init --with nightly).
function benchText(name, entry, valuesName, schema, { nightly = false } = {}) {
  // A controller whose catalog entry says how two releases coexist runs the PR as a duet,
  // adding pairs while a cell is undecided (maxRepetitions); else base and head interleaved.
  const duet = (max) =>
    entry.duet
      ? `    compare: concurrent\n    maxRepetitions: ${max}\n    duration: 45s\n`
      : '    # base and head interleaved on one runner (this controller has no duet support yet)\n    compare: paired\n';
  return `# yaml-language-server: $schema=${schema}
# Written by \`tailgate init\`. Reference: tailgate's docs/config.md.
apiVersion: tailgate/v1
kind: Bench

# maxRate: what one k6 carries on this runner class beside a kind cluster — 2 cores, as
# GitHub's standard runner for private repositories: a steady duet at 500/s per side
# (1000/s for its one k6) dropped nothing there. validate refuses a pr matrix above it.
profiles:
  gha-ubuntu-24.04: { description: "GitHub-hosted runner, kind", runner: ubuntu-24.04, maxRate: 1000 }
${nightly ? nightlyProfileText() : ''}
controllers:
  nginx-reload: { type: local, variant: nginx-reload, retries: "off" }
  haproxy-runtime: { type: local, variant: haproxy-runtime, retries: "off" }
  ${name}:
    type: helm
    chart: { repo: ${entry.chart.repo}, name: ${entry.chart.name}, version: ${entry.chart.version} }
    values: ${valuesName} # relative to this file; it replaces the catalog's values.yaml
${entry.ingressClass ? `    ingressClass: ${entry.ingressClass}\n` : ''}${entry.routing === 'gateway' ? '    routing: gateway\n' : ''}
# vus: the VUs k6 starts with. A pod kill stalls requests for a moment and each holds a
# VU; with too few, k6 starts more mid-run and drops iterations while it does (a 2-core
# runner dropped 0.1-1.3% with 50), which makes a cell inconclusive.
# Rates below what saturates 2 cores: at 500/s a side the node's CPU queue, not the proxy,
# made the steady tail (p99 14-270 ms for a p50 near 1 ms, 2026-11-27); at 200/s p99 was
# 5-11 ms and a duet pair's p99 ratio varied 0.088 (sd of log). pod-kill at 250/s: each
# kill's replacement pod, endpoint updates and both controllers' syncs land on the same
# cores; at 500/s k6 dropped 2-17% of a no-op duet's iterations (inconclusive).
scenarios:
  steady: { script: steady, rate: 200, duration: 20s, warmup: 2s, replicas: 3, vus: 500 }
  pod-kill:
    script: steady
    rate: 250
    duration: 20s
    warmup: 2s
    replicas: 3
    vus: 500
    faults: [{ type: pod-kill, every: 5s, replaceAfter: 1s }]
  # Routes edited under load (docs/routes.md): 20 added, the loaded route switched to a
  # second Service and back 4 times, 4 removed; the gate decides on how long each edit
  # takes to show (propagation) and on errors on the way.
  routes:
    script: steady
    rate: 200
    duration: 25s
    warmup: 2s
    replicas: 3
    vus: 500
    faults:
      - { type: route-add, routes: 20, every: 1s, timeout: 15s }
      - { type: route-change, changes: 4, every: 4s, timeout: 15s, startAfter: 1s }
      - { type: route-remove, routes: 4, every: 5s, timeout: 15s, startAfter: 2s }

matrices:
  local:
    target: local
    controllers: [nginx-reload, haproxy-runtime]
    scenarios: [steady, pod-kill]
  # Three gates, each its own job, cluster and check run: they run side by side, so a PR
  # waits for the longest of them, not their sum (see \`tailgate plan --matrix <name>\`).
  # pr: steady load. ${
    entry.duet
      ? `A duet: the controller as the PR's base configures it and as
  # the PR does, two releases in one cluster, the same pods, one k6. 3 pairs of 45 s, and
  # more (up to 10) only while the cell is undecided; p99 is gated at 5%, which at this
  # noise catches ×1.10 about 8 times in 10 (docs/duet-results.md).`
      : 'Base and head interleaved.'
  }
  pr:
    target: kind
    profile: gha-ubuntu-24.04
    controllers: [${name}]
    scenarios: [steady]
    repetitions: 3
${duet(10)}${entry.duet ? '    gate: { assumedDuetCv: 0.09, latency: { p99: { threshold: 5% } } }\n' : ''}  # pr-failover: pods killed under load; ${
    entry.duet
      ? `each kill hits both sides at once, so it is
  # gated kill by kill on how long each side still sent requests to the dead pod and how
  # many it held up (gate.failover), beside errors and p99. p99 at 25%: a pod-kill cell's
  # p99 is a few stalls per kill (in 6 pairs it sees ×1.3 on haproxy-ingress, ×5 on
  # Traefik), and at 10% no-op PRs ran to their 6th pair (docs/duet-results.md).`
      : 'errors and p99.'
  }
  pr-failover:
    target: kind
    profile: gha-ubuntu-24.04
    controllers: [${name}]
    scenarios: [pod-kill]
    repetitions: 3
${duet(6)}${entry.duet ? '    gate: { latency: { p99: { threshold: 25% } } }\n' : ''}  # pr-routes: routes added, changed and removed under load.
  pr-routes:
    target: kind
    profile: gha-ubuntu-24.04
    controllers: [${name}]
    scenarios: [routes]
    repetitions: 3
${entry.duet ? '    # a duet as pr is: both sides get each route edit at once, their propagation times pair\n    compare: concurrent\n' : '    compare: paired\n'}${nightly ? nightlyMatrixText([name], ['steady', 'pod-kill', 'routes']) : ''}`;
}
