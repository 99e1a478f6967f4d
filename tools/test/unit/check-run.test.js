// The verdict as a check run: which lines of a PR the gate points at (the ones that set
// what the verdict's data-plane or workload change names), what the artifact may carry,
// and that only files of the PR itself get annotated.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { annotationsFor, changedLines, parseDiff } from '../../src/report/annotations.js';
import { checkOutput, conclusionOf, prAnnotations, upsertCheckRun } from '../../src/publish/check-run.js';
import { readCommentArtifact } from '../../src/publish/artifact.js';
import { scratchDir } from '../helpers/scratch.js';

const git = (cwd, ...args) => {
  const r = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
    cwd,
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim();
};

const TRAEFIK_BASE = `deployment:
  replicas: 1
additionalArguments:
  - --entryPoints.web.transport.respondingTimeouts.idleTimeout=180s
  - --serversTransport.maxIdleConnsPerHost=200
resources: { requests: { cpu: 500m } }
`;

function prRepo() {
  const repo = scratchDir('tg-annot-');
  git(repo, 'init', '-q', '-b', 'main');
  writeFileSync(join(repo, 'traefik-values.yaml'), TRAEFIK_BASE);
  writeFileSync(join(repo, 'bench.yaml'), 'scenarios:\n  steady: { script: steady, rate: 500 }\n');
  mkdirSync(join(repo, '.github'));
  writeFileSync(join(repo, '.github', 'ci.yml'), 'maxIdleConnsPerHost: 1\n');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'base');
  const base = git(repo, 'rev-parse', 'HEAD');
  writeFileSync(
    join(repo, 'traefik-values.yaml'),
    TRAEFIK_BASE.replace('maxIdleConnsPerHost=200', 'maxIdleConnsPerHost=4').replace(
      'replicas: 1',
      'replicas: 1 # one',
    ),
  );
  writeFileSync(join(repo, '.github', 'ci.yml'), 'maxIdleConnsPerHost: 2\n');
  git(repo, 'commit', '-q', '-am', 'fewer idle connections');
  return { repo, base };
}

const regression = {
  overall: 'regression',
  exitCode: 1,
  duetChange: [{ directive: '--serversTransport.maxIdleConnsPerHost', before: '200', after: '4' }],
};

test('annotations: the PR line that set the directive the data-plane change names, and no other', () => {
  const { repo, base } = prRepo();
  const changed = changedLines(base, { cwd: repo });
  assert.deepEqual(Object.keys(changed), ['traefik-values.yaml'], 'YAML outside .github/ only');
  assert.deepEqual(
    changed['traefik-values.yaml'].map((l) => l.line),
    [2, 5],
  );
  assert.deepEqual(annotationsFor(regression, changed), [
    {
      path: 'traefik-values.yaml',
      line: 5,
      message: "tailgate: regression — the head's data plane runs --serversTransport.maxIdleConnsPerHost 200 → 4",
    },
  ]);
  assert.deepEqual(
    annotationsFor({ ...regression, overall: 'pass', exitCode: 0 }, changed),
    [],
    'a pass points nowhere',
  );
  const [hostile] = annotationsFor(
    { ...regression, duetChange: [{ ...regression.duetChange[0], after: '@org/admins https://evil.example' }] },
    changed,
  );
  assert.doesNotMatch(hostile.message, /@[A-Za-z]|https:\/\//, 'no mention, no live URL from the PR config');
  assert.deepEqual(changedLines('not-a-sha; rm -rf /', { cwd: repo }), {}, 'a ref that is not a commit id: nothing');
});

test('annotations: a resources change and a workload change find their lines', () => {
  const diff = `diff --git a/haproxy-ingress-values.yaml b/haproxy-ingress-values.yaml
--- a/haproxy-ingress-values.yaml
+++ b/haproxy-ingress-values.yaml
@@ -1,0 +2 @@ controller:
+  resources: { requests: { cpu: 50m }, limits: { cpu: 50m } }
diff --git a/bench.yaml b/bench.yaml
--- a/bench.yaml
+++ b/bench.yaml
@@ -7 +7 @@ scenarios:
-  steady: { script: steady, rate: 500 }
+  steady: { script: steady, rate: 600 }
`;
  const changed = parseDiff(diff);
  const doc = {
    overall: 'inconclusive',
    exitCode: 3,
    duetChange: [{ directive: 'resources haproxy-ingress.limits.cpu', before: '(not set)', after: '50m' }],
    workloadChange: ['scenario "steady": rate 500 → 600'],
  };
  assert.deepEqual(
    annotationsFor(doc, changed).map((a) => `${a.path}:${a.line}`),
    ['haproxy-ingress-values.yaml:2', 'bench.yaml:7'],
  );
});

test('check run: annotations only on files GitHub lists for that PR; success only for exit 0', async () => {
  const calls = [];
  const github = {
    rest: {
      pulls: { listFiles: 'listFiles' },
      checks: {
        listForRef: async (q) => (calls.push(['list', q]), { data: { check_runs: [] } }),
        create: async (q) => (calls.push(['create', q]), { data: { id: 5 } }),
        update: async (q) => calls.push(['update', q]),
      },
    },
    paginate: async (fn, q) => {
      calls.push([fn, q.pull_number]);
      return [
        { filename: 'traefik-values.yaml', status: 'modified' },
        { filename: 'gone.yaml', status: 'removed' },
      ];
    },
  };
  const meta = {
    overall: 'regression',
    exitCode: 1,
    annotations: [
      { path: 'traefik-values.yaml', line: 5, message: 'm' },
      { path: 'gone.yaml', line: 1, message: 'm' },
      { path: 'other-pr.yaml', line: 1, message: 'm' },
    ],
  };
  const annotations = await prAnnotations(github, { owner: 'o', repo: 'r', pullNumber: 7, meta });
  assert.deepEqual(
    annotations.map((a) => [a.path, a.start_line, a.annotation_level]),
    [['traefik-values.yaml', 5, 'failure']],
  );
  assert.deepEqual(calls[0], ['listFiles', 7]);
  const output = checkOutput('<!-- tailgate:sticky-comment -->\n### tailgate ❌ **regression**\n\nbody', annotations);
  assert.equal(output.title, 'tailgate ❌ regression');
  const r = await upsertCheckRun(github, { owner: 'o', repo: 'r', headSha: 'a'.repeat(40), meta, output });
  assert.equal(r.action, 'created');
  assert.equal(calls.find((c) => c[0] === 'create')[1].conclusion, 'failure');
  assert.equal(conclusionOf({ exitCode: 0 }), 'success');
  assert.equal(conclusionOf({ exitCode: 3 }), 'failure', 'inconclusive is not a success');
  assert.ok(checkOutput('x'.repeat(70_000), []).summary.length <= 65_535);
});

test('comment artifact: annotations must be paths inside the repository, line numbers and plain text', () => {
  const dir = scratchDir('tg-annot-art-');
  writeFileSync(join(dir, 'comment.md'), '<!-- tailgate:sticky-comment -->\nok\n');
  const meta = (annotations) =>
    writeFileSync(
      join(dir, 'meta.json'),
      JSON.stringify({ kind: 'tailgate.comment', schemaVersion: 1, overall: 'regression', exitCode: 1, annotations }),
    );
  meta([{ path: 'values/traefik.yaml', line: 3, message: 'tailgate: regression' }]);
  assert.equal(readCommentArtifact(dir, { repoUrl: 'https://github.com/o/r' }).meta.annotations.length, 1);
  for (const bad of [
    [{ path: '../outside.yaml', line: 1, message: 'm' }],
    [{ path: '/etc/passwd', line: 1, message: 'm' }],
    [{ path: 'a//b.yaml', line: 1, message: 'm' }],
    [{ path: 'a.yaml', line: 0, message: 'm' }],
    [{ path: 'a.yaml', line: 1.5, message: 'm' }],
    [{ path: 'a.yaml', line: 1, message: 'x'.repeat(401) }],
    [{ path: 'a.yaml', line: 1, message: 'bell\u0007' }],
    [{ path: 'a.yaml', line: 1, message: 'm', extra: true }],
    Array.from({ length: 21 }, () => ({ path: 'a.yaml', line: 1, message: 'm' })),
    'not a list',
  ]) {
    meta(bad);
    assert.throws(() => readCommentArtifact(dir, { repoUrl: 'https://github.com/o/r' }), /meta\.json must be/);
  }
});
