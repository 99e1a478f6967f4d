// make test-workflows: the adopter's other two uses as GitHub really runs them (issue 68,
// items 1, 4 and 5), in a repository made by README's commands from the packed release
// (`init --with dispatch,nightly`: its calls name tailgate's release commit, act maps it
// onto this checkout). Nothing here benches on kind: the nightly matrix is narrowed to one
// local cell.
// - The nightly on its schedule: act is given GitHub's whole payload for a scheduled run,
//   {"schedule": "<cron>"} — no repository object, so no default_branch (act itself adds
//   default_branch "master" to it, which is not this repository's main either: the old
//   condition was false here too) — and the history branch of a local origin grows by one
//   record per night, two nights running.
// - A dispatch of another branch on the self-hosted runner is refused before anything is
//   set up there, and nothing is recorded.
// - The baseline PR: a dispatch with update-baselines and the secret
//   TAILGATE_BASELINE_PR_TOKEN pushes the branch and opens the PR with that token (so
//   GitHub would start the PR's workflows), its body naming the adopter's workflow.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { RELEASE_COMMIT, actMissing, runAct } from './act.js';
import { dispatchForm, edit, git, readmeAdopter, REPOSITORY } from './adopter.js';
import { startRestStandin } from './rest-standin.js';
import { scratchDir } from '../helpers/scratch.js';

const skip = actMissing() || false;
let api;
let repo;
let origin;
let work;

before(async () => {
  if (skip) return;
  api = await startRestStandin();
  repo = readmeAdopter('traefik', { withUses: 'dispatch,nightly' });
  // For CI minutes only: the nightly matrix as one local cell (nginx on this host).
  edit(
    repo.dir,
    'bench.yaml',
    '    target: kind\n    profile: tailgate-bench\n    controllers: [traefik]\n    scenarios: [steady, pod-kill, routes]\n    repetitions: 3\n',
    '    target: local\n    profile: tailgate-bench\n    controllers: [nginx-reload]\n    scenarios: [steady]\n    repetitions: 1\n',
  );
  git(repo.dir, 'commit', '-qam', 'nightly: one local cell for the test');
  // origin: a bare repository standing in for GitHub's git; act names the repository from
  // origin's URL (a path ending github.com/<owner>/<repo>.git).
  work = scratchDir('tg-wf-gh-');
  mkdirSync(join(work, 'github.com', 'acme'), { recursive: true });
  origin = join(work, 'github.com', 'acme', 'ingress.git');
  spawnSync('git', ['init', '-q', '--bare', '-b', 'main', origin]);
  git(repo.dir, 'remote', 'set-url', 'origin', origin);
  git(repo.dir, 'push', '-q', 'origin', 'main');
});
after(() => api?.close());

const NIGHTLY = '.github/workflows/tailgate-nightly.yml';
// This host is every runner: the nightly's self-hosted labels and the dispatch's hosted one.
const RUNNERS = ['self-hosted=-self-hosted', 'tailgate-bench=-self-hosted', 'ubuntu-24.04=-self-hosted'];

async function run(workflow, event, payload, { secrets = {}, env = {} } = {}) {
  const artifacts = mkdtempSync(join(tmpdir(), 'tg-wf-arts-'));
  const r = await runAct({
    repo: repo.dir,
    workflow,
    event,
    payload,
    apiUrl: api.url,
    artifacts,
    platforms: RUNNERS,
    env: { TAILGATE_DURATION: '5s', ...env },
    secrets,
    timeoutMs: 20 * 60_000,
  });
  const logFile = join(artifacts, 'act.log');
  writeFileSync(logFile, r.log);
  return { ...r, logFile };
}

// The history branch on origin: its commits and the steady cell's records.
function history() {
  const check = scratchDir('tg-wf-gh-hist-');
  const c = spawnSync('git', ['clone', '-q', '--branch', 'tailgate-history', origin, check], { encoding: 'utf8' });
  if (c.status !== 0) return { commits: 0, records: 0 };
  const file = join(check, 'history', 'tailgate-bench', 'nginx-reload', 'default', 'steady.jsonl');
  return {
    commits: Number(git(check, 'rev-list', '--count', 'HEAD')),
    records: readFileSync(file, 'utf8').trim().split('\n').length,
  };
}

test(
  "workflows: the adopter's nightly on its schedule — GitHub's schedule payload (no repository object) records the night on the history branch, which grows night by night",
  { skip, timeout: 45 * 60_000 },
  async () => {
    const caller = readFileSync(join(repo.dir, NIGHTLY), 'utf8');
    assert.match(
      caller,
      new RegExp(`uses: tailgate-dev/tailgate/\\.github/workflows/nightly\\.yml@${RELEASE_COMMIT} # v`),
    );
    assert.deepEqual(history(), { commits: 0, records: 0 }, 'no history before the first night');
    const seen = [];
    for (const night of [1, 2]) {
      const r = await run(NIGHTLY, 'schedule', { schedule: '17 3 * * *' });
      assert.equal(r.code, 0, `night ${night}: ${r.logFile}\n${r.log.slice(-3000)}`);
      assert.match(
        r.log,
        /a schedule run, which GitHub starts on the default branch only: its history is recorded/,
        r.logFile,
      );
      assert.match(
        r.log,
        /\[[^\]]*\/history\] 🏁 {2}Job succeeded/,
        `night ${night}: the history job ran (${r.logFile})`,
      );
      // tailgate's scripts are the called workflow's own commit (job.workflow_sha, fed to act).
      assert.match(r.log, /tailgate tailgate-dev\/tailgate@[0-9a-f]{40}: this workflow's own commit/, r.logFile);
      seen.push(history());
    }
    assert.deepEqual(seen, [
      { commits: 1, records: 1 },
      { commits: 2, records: 2 },
    ]);
  },
);

test(
  "workflows: a dispatch of another branch's nightly is refused on the self-hosted runner before anything is set up there; nothing is recorded",
  { skip, timeout: 15 * 60_000 },
  async () => {
    const before = history();
    git(repo.dir, 'checkout', '-q', '-b', 'feature');
    try {
      const r = await run(NIGHTLY, 'workflow_dispatch', {
        inputs: {},
        ref: 'refs/heads/feature',
        repository: REPOSITORY,
      });
      assert.notEqual(r.code, 0, r.logFile);
      assert.match(
        r.log,
        /refused — this workflow_dispatch run is of refs\/heads\/feature, not the default branch \(main\)/,
      );
      assert.match(r.log, /Failure - Main the default branch, or refused/, r.logFile);
      assert.doesNotMatch(r.log, /Main .*command: setup|make -C .* setup-bench/, 'nothing set up on the machine');
      assert.doesNotMatch(r.log, /\/history\] 🏁 {2}Job succeeded/, r.logFile);
    } finally {
      git(repo.dir, 'checkout', '-q', 'main');
    }
    assert.deepEqual(history(), before, 'the history branch is untouched');
  },
);

test(
  "workflows: the adopter's baseline PR, opened with the token passed as TAILGATE_BASELINE_PR_TOKEN (GitHub starts its checks), names the adopter's workflow",
  { skip, timeout: 20 * 60_000 },
  async () => {
    const TOKEN = 'pr-token-from-the-adopter';
    const r = await run(
      '.github/workflows/tailgate-dispatch.yml',
      'workflow_dispatch',
      {
        inputs: dispatchForm({ 'update-baselines': 'true' }),
        ref: 'refs/heads/main',
        repository: REPOSITORY,
      },
      {
        secrets: { TAILGATE_BASELINE_PR_TOKEN: TOKEN },
        // What GitHub sets for a called workflow's jobs: the caller's workflow file.
        env: { GITHUB_WORKFLOW_REF: 'acme/ingress/.github/workflows/tailgate-dispatch.yml@refs/heads/main' },
      },
    );
    assert.equal(r.code, 0, `${r.logFile}\n${r.log.slice(-3000)}`);
    assert.match(r.log, /\[[^\]]*\/baselines\] 🏁 {2}Job succeeded/, r.logFile);
    const opened = api.state.calls.filter((c) => c.method === 'POST' && /\/repos\/acme\/ingress\/pulls$/.test(c.path));
    assert.equal(opened.length, 1, JSON.stringify(api.state.calls.slice(-5)));
    assert.equal(opened[0].auth, `Bearer ${TOKEN}`, 'opened with the adopter token, not the workflow token');
    const pr = api.state.pulls.find((p) => p.head.ref.startsWith('tailgate/baselines-'));
    assert.equal(pr.base.ref, 'main');
    assert.match(
      pr.body,
      /^Recorded by the workflow \*\*tailgate-dispatch\*\* \(`\.github\/workflows\/tailgate-dispatch\.yml`\)/,
    );
    assert.doesNotMatch(pr.body, /bench-dispatch/);
    assert.match(
      pr.body,
      /Opened with the token passed as baseline-pr-token: GitHub runs this repository's PR workflows on it/,
    );
    // The branch is on origin, with the recorded baselines.
    const branch = spawnSync('git', ['--git-dir', origin, 'ls-tree', '-r', '--name-only', pr.head.ref], {
      encoding: 'utf8',
    });
    assert.match(branch.stdout, /^baselines\/.*nginx-reload.*steady/m, branch.stderr);
  },
);
