// make test-workflows: the adopter's tailgate.yml on pull_request payloads → tailgate's
// reusable gate.yml (plan → bench on offline kind → gate → comment artifact), executed by
// act on this machine. The adopter repository is what `tailgate init` writes plus the
// example workflows; each case is one PR on it. Runs are shortened through
// TAILGATE_DURATION (docs/testing.md). Cases that need a cluster skip with one line where
// offline kind is absent.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import { actMissing, kindEnvironment } from './act.js';
import { startRestStandin } from './rest-standin.js';
import { CLI, adopter, commitBase, edit, gatePr as gateWith, openPr, publishPr, readmeAdopter } from './adopter.js';

const skip = actMissing() || false;
let api;
const kind = skip ? { skip } : kindEnvironment();
const gatePr = (pr, opts = {}) => gateWith(pr, { api, kind, ...opts });

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
      (dir) => edit(dir, 'traefik-values.yaml', '\nservice:\n', '\npodAnnotations: { team: edge }\nservice:\n'),
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
      (dir) => edit(dir, 'bench.yaml', 'steady: { script: steady, rate: 200,', 'steady: { script: steady, rate: fast,'),
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

// The repository is made the README's way (its "Adopting" commands: the packed release
// installed, init, commit, a PR that edits the values file init wrote), and the verdict is
// published by the adopter's own commenter: the sticky comment and the check run.
test(
  "workflows: a no-op PR on offline kind, in a repository made by the README's commands — plan, a duet job, gate: green, the comment says the data plane did not change; comment and check run published",
  { skip: kind.skip, timeout: 40 * 60_000 },
  async () => {
    const repo = readmeAdopter('haproxy-ingress');
    console.log(`# README's commands: npm install ${repo.took.install} s, npx tailgate init ${repo.took.init} s`);
    assert.match(repo.said, /the next PR — change a value in haproxy-ingress-values\.yaml — is compared with its base/);
    const pr = openPr(
      repo,
      (dir) => edit(dir, repo.values, '\ncontroller:\n', '\n# reviewed by the edge team\ncontroller:\n'),
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
    // A first look that asked for a round leaves its gate job red by design; the round's
    // gate (gate-confirmed) is then the verdict of record, green here.
    const confirmed = /\/gate-confirmed[^\]]*\] 🏁 {2}Job succeeded/.test(r.log);
    assert.ok(r.code === 0 || confirmed, r.why);
    assert.ok(
      r.artifacts.some((a) => a.startsWith('tailgate-charts-')),
      r.artifacts.join(', '),
    );
    const t0 = Date.now();
    const p = await publishPr(pr, r, { api });
    console.log(`# tailgate-comment.yml under act: ${Math.round((Date.now() - t0) / 1000)} s`);
    assert.equal(p.code, 0, p.log.slice(-3000));
    assert.equal(p.comments.length, 1, p.log.slice(-3000));
    assert.match(p.comments[0].body, /^<!-- tailgate:sticky-comment/);
    assert.match(p.comments[0].body, /\*\*nothing\*\*/);
    assert.deepEqual(
      p.checks.map((c) => [c.name, c.conclusion]),
      [['tailgate', 'success']],
    );
  },
);

test(
  'workflows: a PR from a fork that caps the controller at 50m CPU fails with a p99 regression, its change named first',
  { skip: kind.skip, timeout: 40 * 60_000 },
  async () => {
    const pr = openPr(
      adopter('haproxy-ingress'),
      (dir) =>
        edit(
          dir,
          'haproxy-ingress-values.yaml',
          '\ncontroller:\n',
          '\ncontroller:\n  resources: { requests: { cpu: 50m }, limits: { cpu: 50m } }\n',
        ),
      'right-size the ingress',
    );
    const r = await gatePr(pr, { fork: true });
    assert.notEqual(r.code, 0, `the check is red (${r.why})`);
    assert.ok(r.comment, `a comment artifact (${r.why})`);
    assert.match(r.comment, /❌ regression/, r.why);
    assert.match(r.comment.split('\n').slice(0, 6).join('\n'), /cpu|resources/i, 'the change leads');
    assert.equal(r.meta?.exitCode, 1);
    // The check run's annotation: the one line of the PR that set the CPU limit (below
    // init's comment line and `controller:`).
    assert.deepEqual(
      r.meta?.annotations?.map((a) => `${a.path}:${a.line}`),
      ['haproxy-ingress-values.yaml:3'],
      JSON.stringify(r.meta),
    );
    assert.match(r.meta.annotations[0].message, /limits\.cpu \(not set\) → 50m/);
  },
);

// The route cell through the PR workflow, and a PR that changes its scenario: init's
// pr-routes matrix (its own matrix, beside pr) in the base's workflow; the PR lowers the
// route scenario's rate. The cell is still a duet (both sides run the head's workload),
// each route edit (an Ingress) applied to both sides at once, propagation gated and shown.
// The same through Gateway API (HTTPRoute edits, Traefik) is make test-kind's duet case:
// a second cell here was a second cluster, 3 minutes of CI, for the same workflow path.
test(
  'workflows: a PR that changes the route scenario is still a duet on the head workload — route edits on both sides, propagation in the comment',
  { skip: kind.skip, timeout: 40 * 60_000 },
  async () => {
    const repo = adopter('haproxy-ingress');
    edit(repo.dir, '.github/workflows/tailgate.yml', 'matrix: pr\n', 'matrix: pr-routes\n');
    const pr = openPr(
      commitBase(repo, 'gate the route cell'),
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
    assert.ok([0, 1, 3].includes(r.meta?.exitCode), `a verdict (${r.meta?.exitCode}): ${r.why}`);
  },
);

// The head alone compares nothing, so no cluster: the PR gates init's local matrix (real
// nginx on this host), made paired — what it checks is the missing base, not kind.
test(
  'workflows: the PR that adds bench.yaml runs the head alone and says there is no base to compare with',
  { skip, timeout: 40 * 60_000 },
  async () => {
    const repo = adopter('haproxy-ingress', { withBench: false });
    const pr = openPr(
      repo,
      (dir) => {
        const init = spawnSync(process.execPath, [CLI, 'init', '--controller', 'haproxy-ingress', '--dir', dir], {
          encoding: 'utf8',
        });
        assert.equal(init.status, 0, init.stderr);
        edit(dir, '.github/workflows/tailgate.yml', 'matrix: pr\n', 'matrix: local\n');
        edit(
          dir,
          'bench.yaml',
          '    controllers: [nginx-reload, haproxy-runtime]\n    scenarios: [steady, pod-kill]\n',
          '    controllers: [nginx-reload]\n    scenarios: [steady]\n    compare: paired\n',
        );
      },
      'add tailgate',
    );
    // Nothing is compared here (no base): 6 s runs say what the case checks in less time.
    const r = await gatePr(pr, { duration: '6s', kind: {} });
    assert.match(r.log, /the base commit has no bench\.yaml — the head runs alone/);
    assert.ok(r.comment, `a comment artifact (${r.why})`);
    assert.match(r.comment, /no baseline to compare with/, r.why);
    assert.match(r.comment, /the base commit has no bench\.yaml: tailgate's default gate applies/);
    assert.doesNotMatch(r.comment, /changes the gate's own rules/, 'no base rules to have changed');
    assert.match(r.comment, /the head ran alone/);
    assert.equal(r.meta?.exitCode, 3);
  },
);
