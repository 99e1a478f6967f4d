// make test-workflows: ci.yml itself on a pull_request payload, executed by act in a copy
// of this repository — checkout, setup-node, setup-go, then .ci/run with CI_STAGES=setup
// (the whole set-up make test does from a clean checkout, the linters, one CLI command).
// act runs the job on this host, where .ci/run has just run every suite: running them
// again here proved nothing new and cost ~4 minutes of the CI budget; the kind and
// workflow stages are their own runs, and this one must not start itself again.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { actMissing, gitRepo, preparedTree, runAct } from './act.js';
import { startRestStandin } from './rest-standin.js';

const skip = actMissing() || false;
let api;
before(async () => {
  if (!skip) api = await startRestStandin();
});
after(() => api?.close());

test(
  'workflows: ci.yml runs .ci/run on a pull_request from a clean checkout and passes',
  { skip, timeout: 30 * 60_000 },
  async () => {
    const repo = preparedTree('tg-wf-ci-');
    const sha = gitRepo(repo, { owner: 'tailgate-dev', name: 'tailgate' });
    const r = await runAct({
      repo,
      workflow: '.github/workflows/ci.yml',
      event: 'pull_request',
      payload: {
        number: 3,
        pull_request: { number: 3, head: { sha, ref: 'pr' }, base: { sha, ref: 'main' } },
        repository: { full_name: 'tailgate-dev/tailgate', name: 'tailgate', owner: { login: 'tailgate-dev' } },
      },
      apiUrl: api.url,
      env: { CI_STAGES: 'setup' },
      timeoutMs: 28 * 60_000,
    });
    const log = join(mkdtempSync(join(tmpdir(), 'tg-wf-ci-log-')), 'act.log');
    writeFileSync(log, r.log);
    // On failure: the inner suite's failing tests, then the log's tail.
    const failing = r.log.split('\n').filter((l) => /✖|not ok/.test(l));
    assert.equal(r.code, 0, `${failing.slice(0, 40).join('\n')}\n${r.log.slice(-1500)}\n${log}`);
    assert.match(r.log, /\[ci\/test\] +✅ +Success - Main make test/, log);
    assert.match(r.log, /==> npm ci/, `set-up from a clean checkout: ${log}`);
    assert.match(r.log, /bench\.yaml: valid/, log);
  },
);
