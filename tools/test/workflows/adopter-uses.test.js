// make test-workflows: the other two uses from the adopter's own repository (issue 62,
// item 4). A scratch repository made by README's commands with `init --with
// dispatch,nightly`, whose callers name tailgate-dev/tailgate/.github/workflows/
// {dispatch,nightly}.yml@<the release commit> — act maps that ref onto this checkout, as for
// the PR gate. The manual run: out-of-range inputs refused by the called workflow's check
// step before any load; a small valid run of the local matrix uploads its result. The
// nightly: on this host as the self-hosted runner, the nightly matrix on kind (narrowed to
// one steady cell for CI minutes), results uploaded, the run appended to the history
// branch of a local origin with the page rebuilt.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { actMissing, kindEnvironment, runAct } from './act.js';
import { dispatchForm, edit, git, readmeAdopter, REPOSITORY } from './adopter.js';
import { startRestStandin } from './rest-standin.js';
import { scratchDir } from '../helpers/scratch.js';

const skip = actMissing() || false;
const kind = skip ? { skip } : kindEnvironment();
let api;
let repo;

before(async () => {
  if (skip) return;
  api = await startRestStandin();
  repo = readmeAdopter('traefik', { withUses: 'dispatch,nightly' });
});
after(() => api?.close());

async function dispatch(over, artifacts = mkdtempSync(join(tmpdir(), 'tg-wf-arts-'))) {
  const r = await runAct({
    repo: repo.dir,
    workflow: '.github/workflows/tailgate-dispatch.yml',
    event: 'workflow_dispatch',
    payload: { inputs: dispatchForm(over), ref: 'refs/heads/main', repository: REPOSITORY },
    apiUrl: api.url,
    artifacts,
  });
  writeFileSync(join(artifacts, 'act.log'), r.log);
  return { ...r, artifacts, logFile: join(artifacts, 'act.log') };
}

test(
  'workflows: the adopter\'s tailgate-dispatch.yml (init --with dispatch) calls a uses: that resolves, and the called check refuses rate=2000000 and a name with a ";" before any load',
  { skip, timeout: 15 * 60_000 },
  async () => {
    const caller = readFileSync(join(repo.dir, '.github', 'workflows', 'tailgate-dispatch.yml'), 'utf8');
    // From the packed release: its commit, its version as the comment (the one pin).
    assert.match(
      caller,
      /uses: tailgate-dev\/tailgate\/\.github\/workflows\/dispatch\.yml@[0-9a-f]{40} # v\d+\.\d+\.\d+\n/,
    );
    for (const [over, why] of [
      [{ rate: '2000000' }, /--rate/],
      [{ controllers: 'nginx-reload;rm -rf /' }, /controllers must be comma-separated names from bench\.yaml/],
    ]) {
      const r = await dispatch(over);
      assert.notEqual(r.code, 0, `${JSON.stringify(over)}: ${r.logFile}\n${r.log.slice(-2000)}`);
      assert.match(r.log, /Failure - Main check inputs/, r.logFile);
      assert.match(r.log, why, r.logFile);
      assert.doesNotMatch(r.log, /Main run\b.*\n.*Success/, 'the run step never ran');
    }
  },
);

test(
  "workflows: the adopter's manual run — one local cell from the form, run by tailgate's dispatch.yml, its result uploaded",
  { skip, timeout: 20 * 60_000 },
  async () => {
    const r = await dispatch({});
    assert.equal(r.code, 0, `${r.logFile}\n${r.log.slice(-3000)}`);
    assert.match(r.log, /\[[^\]]*\/bench\] 🏁 {2}Job succeeded/, r.logFile);
    const [run] = readdirSync(r.artifacts).filter((f) => f !== 'act.log');
    const uploaded = join(r.artifacts, run, 'results-dispatch');
    assert.ok(existsSync(uploaded), r.logFile);
    const results = readdirSync(uploaded, { recursive: true }).filter((f) => String(f).endsWith('result.json'));
    assert.equal(results.length, 1, 'one cell, one repetition');
    // The checked values reached the run: the form's controller and scenario only.
    assert.match(r.log, /nginx-reload\/default\/steady/, r.logFile);
    assert.doesNotMatch(r.log, /haproxy-runtime\/default\/steady/, r.logFile);
  },
);

test(
  "workflows: the adopter's tailgate-nightly.yml (init --with nightly) on a self-hosted runner — the nightly matrix on kind, results uploaded, the run appended to the history branch with its page",
  { skip: skip || kind.skip, timeout: 40 * 60_000 },
  async () => {
    const caller = readFileSync(join(repo.dir, '.github', 'workflows', 'tailgate-nightly.yml'), 'utf8');
    // From the packed release: its commit, its version as the comment (the one pin).
    assert.match(
      caller,
      /uses: tailgate-dev\/tailgate\/\.github\/workflows\/nightly\.yml@[0-9a-f]{40} # v\d+\.\d+\.\d+\n/,
    );
    // For CI minutes only: the nightly matrix narrowed to its steady cell, one repetition.
    edit(
      repo.dir,
      'bench.yaml',
      '    scenarios: [steady, pod-kill, routes]\n    repetitions: 3\n',
      '    scenarios: [steady]\n    repetitions: 1\n',
    );
    git(repo.dir, 'commit', '-qam', 'nightly: one cell for the test');
    // origin: a bare repository standing in for GitHub's git; act names the repository
    // from origin's URL (a path ending github.com/<owner>/<repo>.git).
    const work = scratchDir('tg-wf-nightly-');
    mkdirSync(join(work, 'github.com', 'acme'), { recursive: true });
    const origin = join(work, 'github.com', 'acme', 'ingress.git');
    spawnSync('git', ['init', '-q', '--bare', '-b', 'main', origin]);
    git(repo.dir, 'remote', 'set-url', 'origin', origin);
    git(repo.dir, 'push', '-q', 'origin', 'main');

    const artifacts = mkdtempSync(join(tmpdir(), 'tg-wf-arts-'));
    const r = await runAct({
      repo: repo.dir,
      workflow: '.github/workflows/tailgate-nightly.yml',
      event: 'workflow_dispatch',
      payload: { inputs: {}, ref: 'refs/heads/main', repository: REPOSITORY },
      apiUrl: api.url,
      artifacts,
      // The caller's runs-on: ["self-hosted", "linux", "tailgate-bench"] — this host.
      platforms: ['self-hosted=-self-hosted', 'tailgate-bench=-self-hosted'],
      env: { TAILGATE_DURATION: '10s' },
      hostEnv: kind.env,
      timeoutMs: 35 * 60_000,
    });
    const log = join(artifacts, 'act.log');
    writeFileSync(log, r.log);
    assert.equal(r.code, 0, `${log}\n${r.log.slice(-3000)}`);
    assert.match(r.log, /\[[^\]]*\/bench\] 🏁 {2}Job succeeded/, log);
    assert.match(r.log, /\[[^\]]*\/history\] 🏁 {2}Job succeeded/, log);
    const [run] = readdirSync(artifacts).filter((f) => f !== 'act.log');
    const uploaded = readdirSync(join(artifacts, run, 'results-metal'), { recursive: true }).map(String);
    assert.equal(uploaded.filter((f) => f.endsWith('result.json')).length, 1, 'traefik/default/steady, once');
    // The history branch on origin: this run's record under the machine's profile, the page.
    const check = join(work, 'check');
    const clone = spawnSync('git', ['clone', '-q', '--branch', 'tailgate-history', origin, check], {
      encoding: 'utf8',
    });
    assert.equal(clone.status, 0, clone.stderr);
    const steady = readFileSync(join(check, 'history', 'tailgate-bench', 'traefik', 'default', 'steady.jsonl'), 'utf8');
    assert.equal(steady.trim().split('\n').length, 1, 'the first night: one record');
    assert.ok(existsSync(join(check, 'site', 'index.html')) && existsSync(join(check, 'site', 'summary.md')));
    // One night is no change point: no issue.
    assert.equal(api.state.issues.filter((i) => i.body?.includes('tailgate:change-points')).length, 0);
  },
);
