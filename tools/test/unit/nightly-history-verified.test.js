// Issue 67, item 7 — the nightly's history is verified from its last verified point.
// tools/ci/history.sh passes `history check --since` the tip kept in HISTORY_VERIFIED_FILE,
// but the reusable nightly.yml never set that file: every night read the chain from its
// first commit, so a history branch replayed from scratch with one record changed and
// force-pushed between two nights passed, and the next append built on it. The nightly
// keeps the tip it verified and pushed (a cache of the default branch, restored before
// history.sh and saved after it: a self-hosted runner's disk may be new each night) and
// hands it to history.sh.
// The night is simulated from nightly.yml itself: its history job's cache steps and the
// history step's environment, on a runner whose temp folder is new each night (only what
// the cache kept survives), against a real origin repository.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { scratchDir } from '../helpers/scratch.js';

const ROOT = new URL('../../../', import.meta.url).pathname;
const NIGHTLY = join(ROOT, '.github', 'workflows', 'nightly.yml');
const HISTORY_SH = join(ROOT, 'tools', 'ci', 'history.sh');
const RUN = join(ROOT, 'tools', 'test', 'fixtures', 'runs', 'head');
const BRANCH = 'tailgate-history';

const historyJob = () => parse(readFileSync(NIGHTLY, 'utf8'), { merge: true }).jobs.history;
const isCache = (s, what) => new RegExp(`^actions/cache/${what}@[0-9a-f]{40}$`).test(s.uses ?? '');

// The expressions these steps may use, as GitHub gives them on one night's runner.
function expand(text, ctx) {
  return String(text).replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (all, expr) => {
    assert.ok(Object.hasOwn(ctx, expr), `nightly.yml: ${all} is not one this test knows how to expand`);
    return ctx[expr];
  });
}

test('nightly history verified: the history job keeps the tip history.sh verified and hands it back the next night', () => {
  const steps = historyJob().steps;
  const at = steps.findIndex((s) => s.id === 'history');
  assert.ok(at > 0, 'nightly.yml: the history job has its history step');
  const file = steps[at].env?.HISTORY_VERIFIED_FILE;
  assert.ok(file, 'nightly.yml: the history step passes HISTORY_VERIFIED_FILE (else history check never gets --since)');
  assert.match(file, /^\$\{\{ runner\.temp \}\}\//, 'outside the workspace: a checkout cannot plant it');
  const restore = steps.slice(0, at).filter((s) => isCache(s, 'restore'));
  const save = steps.slice(at + 1).filter((s) => isCache(s, 'save'));
  assert.equal(restore.length, 1, 'one restore of the kept tip before history.sh');
  assert.equal(save.length, 1, 'one save of the verified tip after history.sh');
  const [r, s] = [restore[0], save[0]];
  const dir = file.replace(/\/[^/]+$/, '');
  assert.equal(r.with.path, dir, 'the restore puts the kept tip where history.sh reads it');
  assert.equal(s.with.path, dir, 'the save keeps the folder history.sh wrote it to');
  // Keyed by the history branch; every save its own key (a cache is immutable), the
  // newest restored by prefix; saved only when history.sh verified and pushed.
  assert.match(r.with['restore-keys'], /inputs\.history-branch/);
  assert.ok(
    s.with.key.startsWith(r.with['restore-keys'].trim()),
    `${s.with.key} is found by ${r.with['restore-keys']}`,
  );
  assert.match(s.with.key, /github\.run_id/);
  assert.match(s.with.key, /github\.run_attempt/);
  assert.doesNotMatch(String(s.if ?? ''), /always\(\)|failure\(\)|!cancelled\(\)/, 'never saved from a refused night');
  // actions/cache's sub-actions at its recorded release (workflows.test.js's pin check
  // reads owner/name@sha only).
  const pin = JSON.parse(readFileSync(join(ROOT, 'tools', 'ci', 'action-pins.json'), 'utf8'))['actions/cache'];
  const text = readFileSync(NIGHTLY, 'utf8');
  for (const what of ['restore', 'save'])
    assert.match(text, new RegExp(`uses: actions/cache/${what}@${pin.sha} # ${pin.version}\n`));
});

// A scratch adopter: origin (bare) and the checkout the history job runs in.
function adopter() {
  const dir = scratchDir('tg-nightly-verified-');
  const git = (cwd, ...a) => {
    const r = spawnSync('git', ['-C', cwd, ...a], { encoding: 'utf8' });
    assert.equal(r.status, 0, `git ${a.join(' ')}: ${r.stderr}`);
    return r.stdout.trim();
  };
  const origin = join(dir, 'origin.git');
  git(dir, 'init', '-q', '--bare', '-b', 'main', origin);
  const work = join(dir, 'work');
  git(dir, 'init', '-q', '-b', 'main', work);
  for (const [k, v] of [
    ['user.email', 't@example.com'],
    ['user.name', 't'],
  ])
    git(work, 'config', k, v);
  writeFileSync(join(work, 'README.md'), 'adopter\n');
  git(work, 'add', '-A');
  git(work, 'commit', '-qm', 'main');
  git(work, 'remote', 'add', 'origin', origin);
  git(work, 'push', '-q', 'origin', 'main');
  return { dir, origin, work, git };
}

// One night of the history job as nightly.yml runs it: a new runner temp folder, the
// cache restored into it, history.sh with the step's HISTORY_VERIFIED_FILE, the cache
// saved when the step succeeded.
function night(a, cache, n) {
  const job = historyJob();
  const temp = join(a.dir, `runner-temp-${n}`);
  mkdirSync(temp);
  const ctx = {
    'runner.temp': temp,
    'inputs.history-branch': BRANCH,
    'github.run_id': String(1000 + n),
    'github.run_attempt': '1',
  };
  const restore = job.steps.find((s) => isCache(s, 'restore'));
  const save = job.steps.find((s) => isCache(s, 'save'));
  const step = job.steps.find((s) => s.id === 'history');
  if (restore) {
    const prefix = expand(restore.with['restore-keys'].trim(), ctx);
    const newest = Object.keys(cache)
      .filter((k) => k.startsWith(prefix))
      .sort((x, y) => cache[x].n - cache[y].n)
      .pop();
    if (newest) cpSync(cache[newest].dir, expand(restore.with.path, ctx), { recursive: true });
  }
  const verified = step.env?.HISTORY_VERIFIED_FILE;
  const env = {
    ...process.env,
    RESULTS: RUN,
    COMMIT: String(n).repeat(40),
    HISTORY_BRANCH: BRANCH,
    OUT: join(temp, 'history-out'),
    GITHUB_OUTPUT: '',
    GITHUB_STEP_SUMMARY: '',
  };
  delete env.HISTORY_VERIFIED_FILE;
  if (verified) env.HISTORY_VERIFIED_FILE = expand(verified, ctx);
  const r = spawnSync('bash', [HISTORY_SH], { cwd: a.work, encoding: 'utf8', env, timeout: 120_000 });
  if (r.status === 0 && save) {
    const key = expand(save.with.key, ctx);
    const kept = join(a.dir, `cache-${n}`);
    if (existsSync(expand(save.with.path, ctx))) {
      cpSync(expand(save.with.path, ctx), kept, { recursive: true });
      cache[key] = { dir: kept, n };
    }
  }
  rmSync(temp, { recursive: true, force: true }); // the runner's temp folder is gone
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

// Someone with push access replays the branch from scratch — every commit only adds
// lines — with one record changed, and force-pushes it.
function replay(a) {
  const dir = join(a.dir, 'replay');
  a.git(a.dir, 'clone', '-q', '-b', BRANCH, a.origin, dir);
  const store = spawnSync('git', ['-C', dir, 'ls-files', 'history'], { encoding: 'utf8' }).stdout.trim().split('\n');
  const file = store.find((f) => f.endsWith('.jsonl'));
  const text = readFileSync(join(dir, file), 'utf8').replace(/"p99":[0-9.]+/, '"p99":0.001');
  a.git(dir, 'checkout', '-q', '--orphan', 'replayed');
  a.git(dir, 'config', 'user.email', 'x@example.com');
  a.git(dir, 'config', 'user.name', 'x');
  writeFileSync(join(dir, file), text);
  a.git(dir, 'add', '-A');
  a.git(dir, 'commit', '-qm', 'tailgate history: replayed');
  a.git(dir, 'push', '-q', '--force', 'origin', `replayed:refs/heads/${BRANCH}`);
  return a.git(dir, 'rev-parse', 'HEAD');
}

test('nightly history verified: a history branch replayed with one record changed between two nights is refused the next night (non-fast-forward)', () => {
  const a = adopter();
  const cache = {};
  const first = night(a, cache, 1);
  assert.equal(first.code, 0, first.out);
  assert.match(first.out, /history: appended/);
  const second = night(a, cache, 2);
  assert.equal(second.code, 0, second.out);
  const tip = a.git(a.origin, 'rev-parse', `refs/heads/${BRANCH}`);
  const replayed = replay(a);
  assert.notEqual(replayed, tip);
  const third = night(a, cache, 3);
  assert.equal(third.code, 2, `the replayed branch passed the nightly's check:\n${third.out}`);
  assert.match(
    third.out,
    new RegExp(`non-fast-forward: the branch tip ${replayed.slice(0, 12)} does not descend from ${tip.slice(0, 12)}`),
  );
  assert.equal(a.git(a.origin, 'rev-parse', `refs/heads/${BRANCH}`), replayed, 'nothing appended to the replayed past');
});
