// make test-workflows: two gates in one PR workflow — two calls of gate.yml, as
// docs/workflows.md wires `pr` and `pr-routes` — on the local target (real nginx and
// HAProxy on this host, no cluster: the case is about the verdict of record, not kind).
// gate-a's PR makes its controller answer 30% 500s; one of gate-b's two bench jobs loses
// its upload (the artifact service fails, as a lost runner leaves it). Each gate is red for
// its own reason, names only its own cells, and the published checks are failures.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { actMissing, kindEnvironment, TAILGATE } from './act.js';
import { startRestStandin } from './rest-standin.js';
import { adopter, commitBase, edit, gatePr, openPr } from './adopter.js';
import { publish } from '../helpers/fake-github.js';

const skip = actMissing() || false;
let api;

before(async () => {
  if (!skip) api = await startRestStandin();
});
after(() => api?.close());

// Side by side, as GitHub runs two calls (the local target picks free ports per run).
const WORKFLOW = `name: tailgate
on:
  pull_request:
permissions:
  contents: read
jobs:
  gate-a:
    uses: ${TAILGATE.repository}/.github/workflows/gate.yml@${TAILGATE.ref}
    with: { matrix: gate-a, max-parallel: 1, tailgate-ref: ${TAILGATE.ref} }
  gate-b:
    uses: ${TAILGATE.repository}/.github/workflows/gate.yml@${TAILGATE.ref}
    with: { matrix: gate-b, max-parallel: 1, tailgate-ref: ${TAILGATE.ref} }
`;

const MATRICES = `  gate-a: { target: local, controllers: [nginx-reload], scenarios: [steady], repetitions: 2, compare: paired }
  gate-b: { target: local, controllers: [haproxy-runtime, haproxy-b], scenarios: [steady], repetitions: 2, compare: paired }
`;

test(
  'workflows: two gates in one PR workflow keep apart — a regression in one, a bench job that lost its upload in the other: both published checks fail, each names its own cells',
  { skip, timeout: 30 * 60_000 },
  async () => {
    const repo = adopter('haproxy-ingress');
    writeFileSync(join(repo.dir, '.github', 'workflows', 'tailgate.yml'), WORKFLOW);
    edit(repo.dir, 'bench.yaml', 'matrices:\n', `matrices:\n${MATRICES}`);
    // A second HAProxy, so that gate-b has two cells in two bench jobs (one loses its upload).
    edit(
      repo.dir,
      'bench.yaml',
      'haproxy-runtime: { type: local, variant: haproxy-runtime, retries: "off" }\n',
      'haproxy-runtime: { type: local, variant: haproxy-runtime, retries: "off" }\n  haproxy-b: { type: local, variant: haproxy-runtime, retries: "off" }\n',
    );
    const pr = openPr(
      commitBase(repo, 'two gates'),
      (dir) =>
        edit(
          dir,
          'bench.yaml',
          'nginx-reload: { type: local, variant: nginx-reload, retries: "off" }',
          'nginx-reload: { type: local, variant: nginx-reload, retries: "off", backendErrorRate: 0.3 }',
        ),
      'a backend that fails',
    );
    const kind = kindEnvironment();
    const r = await gatePr(pr, {
      api,
      kind: kind.skip ? {} : kind,
      duration: '6s',
      env: { STANDIN_UPLOAD_FAIL: 'bench-results_gate-b_haproxy-b-default-steady' },
    });
    assert.deepEqual(Object.keys(r.gates).sort(), ['gate-a', 'gate-b'], `one comment per gate (${r.why})`);
    const [a, b] = [r.gates['gate-a'], r.gates['gate-b']];
    assert.equal(a.meta.overall, 'regression', `${a.comment}\n${r.why}`);
    assert.match(a.comment, /^<!-- tailgate:sticky-comment:gate-a -->/);
    assert.match(a.comment, /nginx-reload\/default\/steady/);
    assert.doesNotMatch(a.comment, /haproxy-runtime/, "gate-b's cells never reach gate-a's verdict");
    // gate-b's verdict of record is never a pass: its lost cell is inconclusive. Its other
    // cell changed nothing, but it ran beside gate-a's on two cores, 6 s a run: noise there
    // may make it a candidate (or, confirmed, a regression) — either way not green.
    assert.ok(['inconclusive', 'regression'].includes(b.meta.overall), `${b.meta.overall}\n${b.comment}\n${r.why}`);
    assert.match(b.comment, /haproxy-b\/default\/steady/);
    assert.match(b.comment, /no results from its bench job/);
    assert.doesNotMatch(b.comment, /nginx-reload\/default\/steady/, "gate-a's cells never reach gate-b's verdict");
    assert.match(r.log, /Failed to upload bench-results_gate-b_haproxy-b-default-steady/);
    // What the commenting workflow publishes from each: a failed check of each gate's own.
    for (const [gate, art] of Object.entries(r.gates)) {
      const published = await publish(art.dir, gate, { repoUrl: 'https://github.com/acme/ingress' });
      assert.equal(published.check.name, `tailgate (${gate})`);
      assert.equal(published.check.conclusion, 'failure', gate);
    }
  },
);
