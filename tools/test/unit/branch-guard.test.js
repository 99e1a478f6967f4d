// Issue 68, items 1 and 5: whose bench.yaml a nightly or manual run is, decided by
// tools/ci/branch-guard.sh from the event GitHub sends. A `schedule` run is the default
// branch's — GitHub runs schedules nowhere else, and its payload is {"schedule": "<cron>"}
// with no repository object, so the condition nightly.yml had (github.ref equal to
// refs/heads/ + github.event.repository.default_branch) was false every night. A dispatch
// is the default branch's when its ref is; nothing else is. A run of another branch is
// refused on a self-hosted runner unless the caller opts in.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { scratchDir } from '../helpers/scratch.js';

const ROOT = new URL('../../../', import.meta.url).pathname;
const GUARD = join(ROOT, 'tools', 'ci', 'branch-guard.sh');

// The step's env as the workflow builds it from the event: github.event.repository.default_branch
// is '' where the payload has no repository object.
function guard(event, payload, { ref = 'refs/heads/main', runner, allow } = {}) {
  const out = join(scratchDir('tg-guard-'), 'output');
  const env = {
    PATH: process.env.PATH,
    GITHUB_OUTPUT: out,
    EVENT_NAME: event,
    REF: ref,
    DEFAULT_BRANCH: payload.repository?.default_branch ?? '',
    ...(runner ? { RUNNER_ENVIRONMENT: runner } : {}),
    ...(allow ? { ALLOW_OTHER_BRANCHES: allow } : {}),
  };
  const r = spawnSync(GUARD, [], { encoding: 'utf8', env });
  let output = '';
  try {
    output = readFileSync(out, 'utf8');
  } catch {
    // refused: nothing written
  }
  return { code: r.status, log: `${r.stdout}${r.stderr}`, output };
}

const SCHEDULE = { schedule: '17 3 * * *' }; // GitHub's whole payload for a scheduled run
const repository = { full_name: 'acme/ingress', default_branch: 'main' };

test('branch guard: a schedule run (its payload names no repository) is the default branch, on a self-hosted runner too', () => {
  // What nightly.yml's history condition evaluated on this payload before: never true.
  const old = (ref, payload) => ref === `refs/heads/${payload.repository?.default_branch ?? ''}`;
  assert.equal(old('refs/heads/main', SCHEDULE), false);
  for (const runner of [undefined, 'self-hosted', 'github-hosted']) {
    const r = guard('schedule', SCHEDULE, { runner });
    assert.equal(r.code, 0, r.log);
    assert.equal(r.output, 'default-branch=true\n', `${runner}: ${r.log}`);
  }
});

test('branch guard: a dispatch (or a push) of the default branch is the default branch; of another branch it is not', () => {
  for (const event of ['workflow_dispatch', 'push']) {
    const mine = guard(event, { ref: 'refs/heads/main', repository });
    assert.equal(mine.output, 'default-branch=true\n', `${event}: ${mine.log}`);
    const other = guard(event, { repository }, { ref: 'refs/heads/feature', runner: 'github-hosted' });
    assert.equal(other.code, 0, other.log);
    assert.equal(other.output, 'default-branch=false\n', `${event}: ${other.log}`);
    assert.match(
      other.log,
      /a .* run of refs\/heads\/feature, not the default branch \(main\): results only, no history/,
    );
  }
  // A dispatch whose payload names no default branch is not taken for one; nor is any
  // other event, nor a tag.
  assert.equal(guard('workflow_dispatch', {}, { runner: 'github-hosted' }).output, 'default-branch=false\n');
  assert.equal(guard('pull_request', { repository }, { runner: 'github-hosted' }).output, 'default-branch=false\n');
  assert.equal(
    guard('push', { repository }, { ref: 'refs/tags/main', runner: 'github-hosted' }).output,
    'default-branch=false\n',
  );
});

test("branch guard: another branch's bench.yaml is refused on a self-hosted runner (exit 2) unless the caller opts in", () => {
  for (const runner of ['self-hosted', undefined]) {
    const r = guard('workflow_dispatch', { repository }, { ref: 'refs/heads/feature', runner });
    assert.equal(r.code, 2, r.log);
    assert.equal(r.output, '', 'no output: the job stops here');
    assert.match(
      r.log,
      /::error::tailgate: refused — this workflow_dispatch run is of refs\/heads\/feature, not the default branch \(main\), and this runner is self-hosted: that branch's bench\.yaml .* allow-other-branches: true/,
    );
  }
  const allowed = guard(
    'workflow_dispatch',
    { repository },
    { ref: 'refs/heads/feature', runner: 'self-hosted', allow: 'true' },
  );
  assert.equal(allowed.code, 0, allowed.log);
  assert.equal(allowed.output, 'default-branch=false\n', 'allowed to run, never recorded');
});
