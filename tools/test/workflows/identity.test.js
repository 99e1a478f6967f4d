// make test-workflows: one gate, one identity (issue 59, item 5) — a monorepo with one
// bench.yaml per service, each with a `pr` matrix, gated by two calls of gate.yml in one
// PR workflow (the local target: real nginx and HAProxy on this host, no cluster). The api
// service's PR makes its nginx answer 30% 500s, and the bench job of its second cell (HAProxy)
// loses its upload (the artifact service fails, as a lost runner leaves it); the web
// service's changes nothing. Each gate is named by its config and matrix (services-api.pr,
// services-web.pr): its own artifacts, comment and check — one red for both its reasons,
// one green, both comments on the PR. Before, both were gate "pr": shared artifact names
// and patterns, one marker, one check `tailgate`, last one won. (The two-gate case of its
// own, tools/test/workflows/gates.test.js until 2026-12-02, is this one: a cluster-free
// 4 minutes of CI less.)
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { actMissing, TAILGATE } from './act.js';
import { startRestStandin } from './rest-standin.js';
import { adopter, commitBase, edit, gatePr, git, openPr, publishPr } from './adopter.js';

const skip = actMissing() || false;
let api;

before(async () => {
  if (!skip) api = await startRestStandin();
});
after(() => api?.close());

const call = (job, config) => `  ${job}:
    uses: ${TAILGATE.repository}/.github/workflows/gate.yml@${TAILGATE.ref}
    with: { config: ${config}, matrix: pr, max-parallel: 1, tailgate-ref: ${TAILGATE.ref} }
`;
const WORKFLOW = (...jobs) => `name: tailgate
on:
  pull_request:
permissions:
  contents: read
jobs:
${jobs.join('')}`;
const GATES = ['services-api.pr', 'services-web.pr'];
const COMMENTER = `name: tailgate-comment
on:
  workflow_run:
    workflows: [tailgate]
    types: [completed]
permissions: {}
jobs:
  comment:
    permissions:
      actions: read
      pull-requests: write
      checks: write
    uses: ${TAILGATE.repository}/.github/workflows/comment.yml@${TAILGATE.ref}
    with:
      gates: '${JSON.stringify(GATES)}'
      tailgate-ref: ${TAILGATE.ref}
`;

// One service's bench.yaml: its own `pr` matrix, paired, on the local target. web's p99
// rule is loose: its unchanged PR must stay green beside api's on two cores.
const bench = (threshold, controllers) => `apiVersion: tailgate/v1
kind: Bench
controllers:
  nginx-reload: { type: local, variant: nginx-reload, retries: "off" }
  haproxy-runtime: { type: local, variant: haproxy-runtime, retries: "off" }
scenarios:
  steady: { script: steady, rate: 200, duration: 20s, warmup: 2s, replicas: 3, vus: 500 }
gate:
  latency:
    p99: { threshold: ${threshold} }
matrices:
  pr: { target: local, controllers: [${controllers}], scenarios: [steady], repetitions: 2, compare: paired }
`;
// The api gate's HAProxy cell: its bench job's upload fails.
const LOST = 'bench-results_services-api.pr_haproxy-runtime-default-steady';

function monorepo(jobs) {
  const repo = adopter('haproxy-ingress');
  for (const [svc, threshold, controllers] of [
    ['api', '10%', 'nginx-reload, haproxy-runtime'],
    ['web', '60%', 'nginx-reload'],
  ]) {
    mkdirSync(join(repo.dir, 'services', svc), { recursive: true });
    writeFileSync(join(repo.dir, 'services', svc, 'bench.yaml'), bench(threshold, controllers));
  }
  writeFileSync(join(repo.dir, '.github', 'workflows', 'tailgate.yml'), WORKFLOW(...jobs));
  writeFileSync(join(repo.dir, '.github', 'workflows', 'tailgate-comment.yml'), COMMENTER);
  git(repo.dir, 'add', '-A');
  return commitBase(repo, 'two services, a pr gate each');
}

test(
  'workflows: one gate, one identity — two configs with a pr matrix each in one workflow: one red check (a regression, and a bench job that lost its upload) and one green, both comments present, nothing shared',
  { skip, timeout: 40 * 60_000 },
  async () => {
    const base = monorepo([call('gate-api', 'services/api/bench.yaml'), call('gate-web', 'services/web/bench.yaml')]);
    const pr = openPr(
      base,
      (dir) =>
        edit(
          dir,
          'services/api/bench.yaml',
          'nginx-reload: { type: local, variant: nginx-reload, retries: "off" }',
          'nginx-reload: { type: local, variant: nginx-reload, retries: "off", backendErrorRate: 0.3 }',
        ),
      'api: a backend that fails',
    );
    const r = await gatePr(pr, { api, kind: {}, duration: '6s', env: { STANDIN_UPLOAD_FAIL: LOST } });
    assert.deepEqual(Object.keys(r.gates).sort(), GATES, `one comment artifact per gate (${r.why})`);
    assert.match(r.log, new RegExp(`Failed to upload ${LOST.replace(/\./g, '\\.')}`));
    assert.ok(!r.artifacts.includes(LOST), 'the lost upload stored nothing');
    for (const gate of GATES)
      assert.ok(
        r.artifacts.includes(`bench-results_${gate}_nginx-reload-default-steady`),
        `${gate}'s own bench artifact (${r.artifacts.join(', ')})`,
      );
    const [a, w] = GATES.map((g) => r.gates[g]);
    assert.equal(a.meta.gate, 'services-api.pr');
    assert.equal(a.meta.overall, 'regression', `${a.comment}\n${r.why}`);
    assert.match(a.comment, /^<!-- tailgate:sticky-comment:services-api\.pr -->/);
    // The lost cell is named, inconclusive, in its own gate's comment only.
    assert.match(a.comment, /haproxy-runtime\/default\/steady/);
    assert.match(a.comment, /no results from its bench job/);
    assert.doesNotMatch(
      w.comment,
      /haproxy-runtime|no results from its bench job/,
      "api's cells never reach web's verdict",
    );
    assert.equal(w.meta.gate, 'services-web.pr');
    assert.equal(w.meta.overall, 'pass', `${w.comment}\n${r.why}`);
    assert.match(w.comment, /^<!-- tailgate:sticky-comment:services-web\.pr -->/);

    // The commenting workflow on that run: both comments on PR 7, a check each.
    const p = await publishPr(pr, r, { api });
    assert.equal(p.code, 0, p.log.slice(-3000));
    assert.deepEqual(
      p.comments.map((c) => c.body.split('\n')[0]).sort(),
      GATES.map((g) => `<!-- tailgate:sticky-comment:${g} -->`),
    );
    assert.deepEqual(p.checks.map((c) => [c.name, c.conclusion]).sort(), [
      ['tailgate (services-api.pr)', 'failure'],
      ['tailgate (services-web.pr)', 'success'],
    ]);
  },
);

test(
  'workflows: one gate, one identity — two calls whose names collide are refused at plan, before any bench job',
  { skip, timeout: 20 * 60_000 },
  async () => {
    const base = monorepo([
      call('gate-api', 'services/api/bench.yaml'),
      call('gate-api-again', './services/api/bench.yaml'),
    ]);
    const pr = openPr(base, (dir) => writeFileSync(join(dir, 'README'), 'x\n'), 'a change');
    const r = await gatePr(pr, { api, kind: {}, duration: '6s' });
    assert.notEqual(r.code, 0, r.why);
    assert.match(r.log, /two gates would share one name/);
    assert.match(r.log, /gate "services-api\.pr" is called 2 times/);
    assert.doesNotMatch(r.log, /tailgate run/, 'no bench job ran');
    assert.ok(!r.artifacts.some((n) => n.startsWith('bench-results_')), r.artifacts.join(', '));
    assert.ok(!r.artifacts.includes('tailgate-comment-services-api.pr'), 'nothing published under the shared name');
  },
);
