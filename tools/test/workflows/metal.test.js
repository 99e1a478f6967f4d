// make test-workflows: bench-metal.yml on this host as its self-hosted runner (labels
// mapped), dispatched on main with the quick `local` matrix: the bench job runs and
// uploads its results; the history job appends them to the history branch of a local
// origin (a bare repository standing in for GitHub's git), finds the change point planted
// in the history it found there, rebuilds the page and charts, and opens the change-point
// issue through the REST stand-in.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadBench } from '../../src/config/load.js';
import { after, before, test } from 'node:test';
import { ROOT, actMissing, kindEnvironment, preparedTree, runAct, seedTools } from './act.js';
import { startRestStandin } from './rest-standin.js';
import { scratchDir } from '../helpers/scratch.js';

const skip = actMissing() || false;
const kind = skip ? { skip } : kindEnvironment();
const CLI = join(ROOT, 'tools', 'bin', 'tailgate.js');
let api;

const git = (dir, ...a) => {
  const r = spawnSync('git', ['-C', dir, ...a], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${a.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
};

// The profile the job's local matrix takes on this machine (its class may have one of its
// own, as a 2-core Debian 12 machine does: bench.yaml, local-2cpu-debian12).
const PROFILE = loadBench(join(ROOT, 'bench.yaml')).matrices.local.profile;

// 30 nights of nginx-reload/default/steady on that profile, p99 ×1.5 from night 21:
// the history the job finds on origin's history branch.
function plantedHistory(work) {
  const store = join(work, 'history');
  for (let i = 0; i < 30; i++) {
    const r = spawnSync(
      process.execPath,
      [
        CLI,
        'history',
        'append',
        '--results',
        join(ROOT, 'tools/test/fixtures/runs/base'),
        '--commit',
        (0xc0ffee0 + i).toString(16),
        '--store',
        store,
      ],
      { encoding: 'utf8' },
    );
    assert.equal(r.status, 0, r.stderr);
  }
  for (const f of readdirSync(store, { recursive: true })
    .map(String)
    .filter((x) => x.endsWith('.jsonl'))) {
    const lines = readFileSync(join(store, f), 'utf8')
      .trim()
      .split('\n')
      .map((l, i) => {
        const rec = JSON.parse(l);
        const wobble = 1 + 0.03 * Math.sin(i * 2.1);
        for (const q of Object.keys(rec.latencyMs)) rec.latencyMs[q] *= wobble * (i >= 20 ? 1.5 : 1);
        rec.time = new Date(Date.UTC(2026, 9, 1 + i)).toISOString();
        rec.profile = PROFILE;
        return JSON.stringify(rec);
      });
    rmSync(join(store, f));
    const to = join(store, PROFILE, ...f.split('/').slice(1));
    mkdirSync(dirname(to), { recursive: true });
    writeFileSync(to, `${lines.join('\n')}\n`);
  }
  return store;
}

before(async () => {
  if (!skip) api = await startRestStandin();
});
after(() => api?.close());

test(
  'workflows: bench-metal on a self-hosted runner — local matrix, results uploaded, history appended and pushed, the planted change point opens one issue',
  { skip: skip || kind.skip, timeout: 30 * 60_000 },
  async () => {
    const work = scratchDir('tg-wf-metal-');
    // origin: a bare repository with main and a history branch holding the planted nights.
    // act names the repository from origin's URL: a path ending github.com/<owner>/<repo>.git.
    const origin = join(work, 'github.com', 'tailgate-dev', 'tailgate.git');
    mkdirSync(join(work, 'github.com', 'tailgate-dev'), { recursive: true });
    spawnSync('git', ['init', '-q', '--bare', '-b', 'main', origin]);
    const repo = preparedTree('tg-wf-metal-repo-');
    // Its runs last 2 s: another workload than the committed baselines' 20 s, against
    // which every cell is inconclusive, as it must be. This case is about results,
    // history and the issue; without baselines the run just says there are none.
    rmSync(join(repo, 'baselines'), { recursive: true, force: true });
    seedTools(repo);
    git(repo, 'init', '-q', '-b', 'main');
    git(repo, 'config', 'user.email', 'ci@example.com');
    git(repo, 'config', 'user.name', 'ci');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'tailgate');
    git(repo, 'remote', 'add', 'origin', origin);
    git(repo, 'push', '-q', 'origin', 'main');
    const hist = join(work, 'hist');
    mkdirSync(hist);
    git(hist, 'init', '-q', '-b', 'tailgate-history');
    git(hist, 'config', 'user.email', 'ci@example.com');
    git(hist, 'config', 'user.name', 'ci');
    plantedHistory(hist);
    git(hist, 'add', '-A');
    git(hist, 'commit', '-qm', 'thirty nights');
    git(hist, 'push', '-q', origin, 'tailgate-history');

    const artifacts = mkdtempSync(join(tmpdir(), 'tg-wf-arts-'));
    const r = await runAct({
      repo,
      workflow: '.github/workflows/bench-metal.yml',
      event: 'workflow_dispatch',
      payload: {
        inputs: { matrix: 'local' },
        ref: 'refs/heads/main',
        repository: {
          full_name: 'tailgate-dev/tailgate',
          name: 'tailgate',
          owner: { login: 'tailgate-dev' },
          default_branch: 'main',
        },
      },
      apiUrl: api.url,
      artifacts,
      platforms: ['self-hosted=-self-hosted'],
      vars: { TAILGATE_K6_CPUS: '0-1' },
      env: { TAILGATE_DURATION: '2s' },
      hostEnv: kind.env,
      timeoutMs: 25 * 60_000,
    });
    writeFileSync(join(artifacts, 'act.log'), r.log);
    const log = join(artifacts, 'act.log');
    assert.equal(r.code, 0, `${r.log.slice(-3000)}\n${log}`);
    assert.match(r.log, /\[[^\]]*\/bench\] 🏁 {2}Job succeeded/, log);
    assert.match(r.log, /\[[^\]]*\/history\] 🏁 {2}Job succeeded/, log);
    const [run] = readdirSync(artifacts).filter((f) => f !== 'act.log');
    const uploaded = readdirSync(join(artifacts, run, 'results-metal'), { recursive: true }).map(String);
    assert.equal(uploaded.filter((f) => f.endsWith('result.json')).length, 12, 'the local matrix: 12 cells');
    // The history branch on origin: the planted nights, one more record per cell, the page.
    const check = join(work, 'check');
    spawnSync('git', ['clone', '-q', '--branch', 'tailgate-history', origin, check]);
    const steady = readFileSync(join(check, 'history', PROFILE, 'nginx-reload', 'default', 'steady.jsonl'), 'utf8');
    assert.ok(steady.trim().split('\n').length >= 1);
    const churn = readFileSync(join(check, 'history', PROFILE, 'nginx-reload', 'default', 'churn.jsonl'), 'utf8');
    assert.equal(churn.trim().split('\n').length, 31, 'thirty planted nights and this run');
    assert.ok(existsSync(join(check, 'site', 'index.html')) && existsSync(join(check, 'site', 'summary.md')));
    assert.ok(existsSync(join(check, 'site', 'png', 'cell-0', 'history.png')));
    // One change-point issue, naming the planted shift.
    const issues = api.state.issues.filter((i) => i.body?.includes('tailgate:change-points'));
    assert.equal(issues.length, 1, JSON.stringify(api.state.calls.slice(-5)));
    assert.match(issues[0].body, /nginx-reload\/default\/churn/);
    assert.match(issues[0].body, /c0ffef4/); // night 21 (i = 20), where the planted shift starts
  },
);
