// make test-workflows: the adopter's tailgate.yml on pull_request payloads → tailgate's
// reusable gate.yml (plan → bench on offline kind → gate → comment artifact), executed by
// act on this machine. The adopter repository is what `tailgate init` writes plus the
// example workflows; each case is one PR on it. Runs are shortened through
// TAILGATE_DURATION (docs/testing.md). Cases that need a cluster skip with one line where
// offline kind is absent.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ROOT, actMissing, kindEnvironment, runAct } from './act.js';
import { startRestStandin } from './rest-standin.js';
import { scratchDir } from '../helpers/scratch.js';

const CLI = join(ROOT, 'tools', 'bin', 'tailgate.js');
const skip = actMissing() || false;
let api;

const kind = skip ? { skip } : kindEnvironment();

const git = (dir, ...a) => {
  const r = spawnSync('git', ['-C', dir, ...a], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${a.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
};

/** An adopter repository on main: `tailgate init` for the controller + the example workflows. */
function adopter(controller, { withBench = true } = {}) {
  const dir = scratchDir(`tg-wf-adopter-${controller}-`);
  const init = spawnSync(process.execPath, [CLI, 'init', '--controller', controller, '--dir', dir], {
    encoding: 'utf8',
  });
  assert.equal(init.status, 0, init.stderr);
  cpSync(join(ROOT, 'examples', 'adopter', '.github'), join(dir, '.github'), { recursive: true });
  if (!withBench) rmSync(join(dir, 'bench.yaml'));
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.email', 'dev@example.com');
  git(dir, 'config', 'user.name', 'dev');
  git(dir, 'remote', 'add', 'origin', 'https://github.com/acme/ingress.git');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'tailgate');
  return { dir, base: git(dir, 'rev-parse', 'HEAD') };
}

/** The PR: `change(dir)` on a branch, committed; the repository is left at the head. */
function openPr(repo, change, message) {
  git(repo.dir, 'checkout', '-q', '-b', 'pr');
  change(repo.dir);
  git(repo.dir, 'add', '-A');
  git(repo.dir, 'commit', '-qm', message);
  return { ...repo, head: git(repo.dir, 'rev-parse', 'HEAD') };
}

/** A file of the PR's tree with `from` replaced by `to` (which must be there). */
function edit(dir, file, from, to) {
  const text = readFileSync(join(dir, file), 'utf8');
  assert.ok(text.includes(from), `${file} has no ${JSON.stringify(from)}`);
  writeFileSync(join(dir, file), text.replace(from, to));
}

const catalogValues = (controller) =>
  readFileSync(join(ROOT, 'charts', 'controllers', controller, 'values.yaml'), 'utf8');

/** The adopter's own values file for its one helm controller, named in bench.yaml. */
function useValues(dir, controller, values) {
  writeFileSync(join(dir, `${controller}-values.yaml`), values);
  edit(dir, 'bench.yaml', '    ingressClass: ', `    values: ${controller}-values.yaml\n    ingressClass: `);
}

/** An adopter whose base commit already has its own copy of the catalog's values. */
function adopterWithValues(controller) {
  const repo = adopter(controller);
  useValues(repo.dir, controller, catalogValues(controller));
  git(repo.dir, 'add', '-A');
  git(repo.dir, 'commit', '-qm', 'own values');
  return { ...repo, base: git(repo.dir, 'rev-parse', 'HEAD') };
}

function payload(pr, { fork = false } = {}) {
  const owner = fork ? 'contrib' : 'acme';
  return {
    action: 'synchronize',
    number: 7,
    pull_request: {
      number: 7,
      head: { sha: pr.head, ref: 'pr', repo: { full_name: `${owner}/ingress`, owner: { login: owner }, fork } },
      base: { sha: pr.base, ref: 'main', repo: { full_name: 'acme/ingress', owner: { login: 'acme' } } },
    },
    repository: { full_name: 'acme/ingress', name: 'ingress', owner: { login: 'acme' } },
  };
}

/** tailgate.yml on the PR; returns act's exit code and log, and the comment artifact. */
async function gatePr(pr, { fork = false, duration = '15s' } = {}) {
  const artifacts = mkdtempSync(join(tmpdir(), 'tg-wf-arts-'));
  const r = await runAct({
    repo: pr.dir,
    workflow: '.github/workflows/tailgate.yml',
    event: 'pull_request',
    payload: payload(pr, { fork }),
    apiUrl: api.url,
    artifacts,
    env: { TAILGATE_DURATION: duration },
    hostEnv: kind.env ?? process.env,
    timeoutMs: 40 * 60_000,
  });
  // The whole log beside the artifacts, for a failing case to be read.
  writeFileSync(join(artifacts, 'act.log'), r.log);
  const [run] = readdirSync(artifacts).filter((f) => f !== 'act.log');
  const art = (name, file) => {
    const f = run ? join(artifacts, run, name, file) : '';
    return f && existsSync(f) ? readFileSync(f, 'utf8') : null;
  };
  const names = run ? readdirSync(join(artifacts, run)) : [];
  // Each gate's comment: tailgate-comment-<matrix> (several gates in one run, one each).
  const gates = Object.fromEntries(
    names
      .filter((n) => n.startsWith('tailgate-comment-'))
      .map((n) => [
        n.slice('tailgate-comment-'.length),
        {
          comment: art(n, 'comment.md'),
          meta: JSON.parse(art(n, 'meta.json') ?? 'null'),
          dir: join(artifacts, run, n),
        },
      ]),
  );
  const [only] = Object.values(gates);
  return {
    ...r,
    gates,
    comment: only?.comment ?? null,
    meta: only?.meta ?? null,
    artifacts: names,
    logFile: join(artifacts, 'act.log'),
    why: `${join(artifacts, 'act.log')}\n${failureExcerpt(r.log)}\n${firstFailure(r.log)}`,
  };
}

// A failing case names its log, but CI keeps only the test's own message: the log's
// failed steps (tailgate's INFRA ERROR block, act's failed step lines) go into it.
function failureExcerpt(log) {
  const lines = log.split('\n');
  const out = [];
  let until = 0; // a match inside the last excerpt is already shown
  lines.forEach((l, i) => {
    if (i < until || !/INFRA ERROR|ERROR: |❌ {2}Failure - /.test(l)) return;
    until = i + 40;
    out.push(...lines.slice(i, until), '…');
  });
  return out.join('\n').slice(-6000);
}

// CI shows a failing message's last lines only: they are the log's first INFRA ERROR
// (the step and its cause) and what its diagnose commands said, a few lines each.
function firstFailure(log) {
  const lines = log.split('\n').map((l) => l.replace(/^\[[^\]]*\]\s+\|?\s*/, ''));
  const at = lines.findIndex((l) => /INFRA ERROR/.test(l));
  if (at < 0) return '';
  const out = ['first failure:', lines[at].slice(0, 600)];
  for (let i = at + 1; i < Math.min(lines.length, at + 80) && !/INFRA ERROR/.test(lines[i]); i++)
    if (/^why \(/.test(lines[i]) || (/^\| /.test(lines[i]) && /^(why \(|\| )/.test(out.at(-1) ?? '')))
      out.push(lines[i].slice(0, 200));
  return out.join('\n');
}

before(async () => {
  if (!skip) api = await startRestStandin();
});
after(() => api?.close());

test(
  'workflows: a PR whose values break the chart schema gets one line naming file, key and rule — no cluster',
  { skip: kind.skip, timeout: 20 * 60_000 },
  async () => {
    const pr = openPr(
      adopter('traefik'),
      // Traefik 41 wants deployment.podAnnotations; top-level podAnnotations is refused.
      (dir) => useValues(dir, 'traefik', `${catalogValues('traefik')}\npodAnnotations: { team: edge }\n`),
      'annotate the ingress pods',
    );
    const r = await gatePr(pr);
    assert.notEqual(r.code, 0, `the check is red (${r.why})`);
    assert.doesNotMatch(r.log, /create kind cluster/, 'no cluster was started');
    assert.ok(r.comment, `a comment artifact (artifacts: ${r.artifacts.join(', ')})`);
    assert.match(r.comment, /traefik-values\.yaml/);
    assert.match(r.comment, /podAnnotations/);
  },
);

test(
  'workflows: a PR whose bench.yaml is invalid gets one line naming file, field and rule (the plan job refused it)',
  { skip, timeout: 20 * 60_000 },
  async () => {
    const pr = openPr(
      adopter('haproxy-ingress'),
      (dir) => edit(dir, 'bench.yaml', 'steady: { script: steady, rate: 500,', 'steady: { script: steady, rate: fast,'),
      'faster',
    );
    const r = await gatePr(pr);
    assert.notEqual(r.code, 0, `the check is red (${r.why})`);
    assert.match(r.log, /\[[^\]]*\/plan\] 🏁 {2}Job failed/);
    assert.ok(r.comment, `a comment artifact (${r.why})`);
    assert.match(r.comment, /this PR's input is refused/);
    assert.match(
      r.comment,
      /bench\.yaml: 1 problem in bench config · bench\.yaml:\d+:\d+: scenarios\.steady\.rate: must be integer\n/,
    );
    assert.equal(r.meta?.exitCode, 2);
  },
);

test(
  'workflows: a workflow that names a matrix bench.yaml does not have gets one line saying so',
  { skip, timeout: 20 * 60_000 },
  async () => {
    const pr = openPr(
      adopter('haproxy-ingress'),
      (dir) => edit(dir, '.github/workflows/tailgate.yml', 'matrix: pr', 'matrix: pr-fast'),
      'use the fast matrix',
    );
    const r = await gatePr(pr);
    assert.notEqual(r.code, 0, `the check is red (${r.why})`);
    assert.ok(r.comment, `a comment artifact (${r.why})`);
    assert.match(r.comment, /pr-fast/);
    assert.equal(r.meta?.exitCode, 2);
  },
);

// The cases below bench on offline kind: one cluster at a time, so they run in order.

test(
  'workflows: a no-op PR on offline kind — plan, a duet job, gate: green, the comment says the data plane did not change',
  { skip: kind.skip, timeout: 40 * 60_000 },
  async () => {
    const pr = openPr(
      adopterWithValues('haproxy-ingress'),
      (dir) => edit(dir, 'haproxy-ingress-values.yaml', 'controller:\n', '# reviewed by the edge team\ncontroller:\n'),
      'a comment in the values',
    );
    const r = await gatePr(pr);
    assert.match(r.log, /\[[^\]]*\/bench[^\]]*\] 🏁 {2}Job succeeded/, r.why);
    assert.ok(r.comment, `a comment artifact (${r.why})`);
    assert.match(
      r.comment,
      /\*\*What the head changes in the data plane\*\* \(its pod vs the base's, captured before load\): \*\*nothing\*\*/,
    );
    assert.match(r.comment, /Duet: base and head ran at the same time/);
    assert.equal(r.meta?.exitCode, 0, `${r.comment}\n${r.why}`);
    assert.equal(r.code, 0, r.why);
    assert.ok(
      r.artifacts.some((a) => a.startsWith('tailgate-charts-')),
      r.artifacts.join(', '),
    );
  },
);

test(
  'workflows: a PR from a fork that caps the controller at 50m CPU fails with a p99 regression, its change named first',
  { skip: kind.skip, timeout: 40 * 60_000 },
  async () => {
    const pr = openPr(
      adopterWithValues('haproxy-ingress'),
      (dir) =>
        edit(
          dir,
          'haproxy-ingress-values.yaml',
          'controller:\n',
          'controller:\n  resources: { requests: { cpu: 50m }, limits: { cpu: 50m } }\n',
        ),
      'right-size the ingress',
    );
    const r = await gatePr(pr, { fork: true });
    assert.notEqual(r.code, 0, `the check is red (${r.why})`);
    assert.ok(r.comment, `a comment artifact (${r.why})`);
    assert.match(r.comment, /❌ regression/, r.why);
    assert.match(r.comment.split('\n').slice(0, 6).join('\n'), /cpu|resources/i, 'the change leads');
    assert.equal(r.meta?.exitCode, 1);
    // The check run's annotation: the one line of the PR that set the CPU limit.
    assert.deepEqual(
      r.meta?.annotations?.map((a) => `${a.path}:${a.line}`),
      ['haproxy-ingress-values.yaml:2'],
      JSON.stringify(r.meta),
    );
    assert.match(r.meta.annotations[0].message, /limits\.cpu \(not set\) → 50m/);
  },
);

// The route cell through the PR workflow, and a PR that changes its scenario: init's
// pr-routes matrix (its own matrix, beside pr) in the base's workflow, with a second
// controller that routes through Gateway API (Traefik, HTTPRoute) beside init's
// haproxy-ingress (Ingress); the PR lowers the route scenario's rate. Each cell still a
// duet (both sides run the head's workload), each route edit — an Ingress on one, an
// HTTPRoute on the other — applied to both sides at once, propagation gated and shown.
test(
  'workflows: a PR that changes the route scenario is still a duet on the head workload — route edits on both sides, Ingress and HTTPRoute, propagation in the comment',
  { skip: kind.skip, timeout: 40 * 60_000 },
  async () => {
    const repo = adopter('haproxy-ingress');
    // Two cells, two bench jobs: one at a time on this one machine (each binds 18080).
    edit(repo.dir, '.github/workflows/tailgate.yml', 'matrix: pr\n', 'matrix: pr-routes\n      max-parallel: 1\n');
    edit(
      repo.dir,
      'bench.yaml',
      '    ingressClass: haproxy\n',
      '    ingressClass: haproxy\n  traefik-gateway:\n    type: helm\n    catalog: traefik\n    routing: gateway\n    chart: { repo: https://traefik.github.io/charts, name: traefik, version: 41.3.0 }\n    ingressClass: traefik\n',
    );
    edit(
      repo.dir,
      'bench.yaml',
      '  pr-routes:\n    target: kind\n    profile: gha-ubuntu-24.04\n    controllers: [haproxy-ingress]\n',
      '  pr-routes:\n    target: kind\n    profile: gha-ubuntu-24.04\n    controllers: [haproxy-ingress, traefik-gateway]\n',
    );
    git(repo.dir, 'commit', '-qam', 'gate the route cells, Ingress and Gateway API');
    const pr = openPr(
      { ...repo, base: git(repo.dir, 'rev-parse', 'HEAD') },
      (dir) =>
        edit(
          dir,
          'bench.yaml',
          '  routes:\n    script: steady\n    rate: 200\n',
          '  routes:\n    script: steady\n    rate: 150\n',
        ),
      'a lighter route load',
    );
    const r = await gatePr(pr);
    assert.ok(r.comment, `a comment artifact (${r.why})`);
    assert.doesNotMatch(r.log, /run as interleaved pairs, not as a duet/);
    assert.match(r.comment, /This PR changes the workload/, r.why);
    assert.match(r.comment, /rate 200 → 150/);
    assert.match(r.comment, /\*\*Routes under load\*\*/, r.why);
    assert.match(r.comment, /haproxy-ingress\/default\/routes/);
    assert.match(r.comment, /traefik-gateway\/default\/routes/, 'the HTTPRoute cell');
    assert.ok([0, 1, 3].includes(r.meta?.exitCode), `a verdict (${r.meta?.exitCode}): ${r.why}`);
  },
);

test(
  'workflows: the PR that adds bench.yaml runs the head alone and says there is no base to compare with',
  { skip: kind.skip, timeout: 40 * 60_000 },
  async () => {
    const repo = adopter('haproxy-ingress', { withBench: false });
    const pr = openPr(
      repo,
      (dir) => {
        const init = spawnSync(process.execPath, [CLI, 'init', '--controller', 'haproxy-ingress', '--dir', dir], {
          encoding: 'utf8',
        });
        assert.equal(init.status, 0, init.stderr);
      },
      'add tailgate',
    );
    // Nothing is compared here (no base): 6 s runs say what the case checks in less time.
    const r = await gatePr(pr, { duration: '6s' });
    assert.match(r.log, /the base commit has no bench\.yaml — the head runs alone/);
    assert.ok(r.comment, `a comment artifact (${r.why})`);
    assert.match(r.comment, /no baseline to compare with/, r.why);
    assert.match(r.comment, /the base commit has no bench\.yaml: tailgate's default gate applies/);
    assert.doesNotMatch(r.comment, /changes the gate's own rules/, 'no base rules to have changed');
    assert.match(r.comment, /the head ran alone/);
    assert.equal(r.meta?.exitCode, 3);
  },
);
