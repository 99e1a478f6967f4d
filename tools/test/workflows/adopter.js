// The adopter repository and its PRs for make test-workflows: what `tailgate init`
// writes plus the example workflows (or the README's commands from a packed release), a
// PR branch on it, tailgate.yml run by act on the pull_request payload (the comment
// artifacts of each gate read back), and tailgate-comment.yml publishing them.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, runAct } from './act.js';
import { scratchDir } from '../helpers/scratch.js';
import { workflowFiles } from '../../src/cli/init-workflows.js';

export const CLI = join(ROOT, 'tools', 'bin', 'tailgate.js');

export const git = (dir, ...a) => {
  const r = spawnSync('git', ['-C', dir, ...a], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${a.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
};

/** An adopter repository on main: `tailgate init` for the controller + the example workflows. */
// The adopter's repository as its dispatch and schedule payloads name it.
export const REPOSITORY = {
  full_name: 'acme/ingress',
  name: 'ingress',
  owner: { login: 'acme' },
  default_branch: 'main',
};

/** tailgate-dispatch.yml's inputs for one small local cell, with `over` laid on them. */
export const dispatchForm = (over = {}) => ({
  matrix: 'local',
  controllers: 'nginx-reload',
  tunings: '',
  scenarios: 'steady',
  // 1000 samples: what the local matrix's blocking p99 needs (validate refuses fewer).
  rate: '500',
  duration: '2s',
  repetitions: '1',
  compare: 'none',
  'update-baselines': 'false',
  ...over,
});

export function adopter(controller, { withBench = true, gates = ['pr'] } = {}) {
  const dir = scratchDir(`tg-wf-adopter-${controller}-`);
  const init = spawnSync(process.execPath, [CLI, 'init', '--controller', controller, '--dir', dir], {
    encoding: 'utf8',
  });
  assert.equal(init.status, 0, init.stderr);
  forTheCase(dir, { withBench, gates });
  if (!withBench) rmSync(join(dir, 'bench.yaml'));
  gitInit(dir);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'tailgate');
  return { dir, base: git(dir, 'rev-parse', 'HEAD') };
}

// What a case changes in init's output, for CI minutes only: init wrote the gates pr,
// pr-failover and pr-routes; a case gates pr alone unless it says otherwise (each kind
// gate is minutes of CI). The steady duet adds pairs while undecided (up to 10 of 45 s);
// the cases' 15 s runs are noisier, so a no-op would take all 10: 4 keep a case's minutes
// (what it checks is the workflow, not the gate's power — make perf measures that).
function forTheCase(dir, { withBench = true, gates = ['pr'] } = {}) {
  for (const [f, text] of Object.entries(workflowFiles(gates)))
    writeFileSync(join(dir, '.github', 'workflows', f), text);
  if (withBench) edit(dir, 'bench.yaml', '    maxRepetitions: 10\n', '    maxRepetitions: 4\n');
}

function gitInit(dir) {
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.email', 'dev@example.com');
  git(dir, 'config', 'user.name', 'dev');
  git(dir, 'remote', 'add', 'origin', 'https://github.com/acme/ingress.git');
}

let tarball;
/** tailgate packed the release's way (release.yml's `pack` step), once per test file. */
export function releaseTarball() {
  if (tarball) return tarball;
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const out = scratchDir('tg-wf-pack-');
  const r = spawnSync(join(ROOT, 'tools', 'ci', 'release.sh'), ['pack'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, TAG: `v${version}`, RELEASE_OUT: out },
  });
  assert.equal(r.status, 0, `release.sh pack: ${r.stdout}${r.stderr}`);
  tarball = join(out, `tailgate-${version}.tgz`);
  return tarball;
}

/**
 * An adopter repository made by README's "Adopting" commands, in order: the packed
 * release installed (standing in for README's `github:tailgate-dev/tailgate#v0`, which
 * needs the network; npm, from its cache), `npx tailgate init`, the
 * files init wrote committed — `tailgate setup` left out (it installs local tools; the
 * gate's jobs install their own). Returns the repository and what each step took.
 * withUses: init's --with (docs/adopting.md: "dispatch,nightly" adds the manual and
 * nightly callers).
 */
export function readmeAdopter(controller, { withUses = null } = {}) {
  const dir = scratchDir(`tg-wf-readme-${controller}-`);
  gitInit(dir);
  const took = {};
  const step = (name, cmd, args) => {
    const t0 = Date.now();
    const r = spawnSync(cmd, args, {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, npm_config_update_notifier: 'false' },
    });
    took[name] = Math.round((Date.now() - t0) / 100) / 10;
    assert.equal(r.status, 0, `${cmd} ${args.join(' ')}: ${r.stdout}${r.stderr}`);
    return r.stdout;
  };
  const tgz = releaseTarball();
  step('install', 'npm', [
    'install',
    '--save-dev',
    '--prefer-offline',
    '--no-audit',
    '--no-fund',
    '--loglevel=error',
    tgz,
  ]);
  const said = step('init', 'npx', [
    'tailgate',
    'init',
    '--controller',
    controller,
    ...(withUses ? ['--with', withUses] : []),
  ]);
  forTheCase(dir);
  const values = `${controller}-values.yaml`;
  git(dir, 'add', 'package.json', 'package-lock.json', 'bench.yaml', values, '.github');
  git(dir, 'commit', '-qm', 'tailgate');
  return { dir, base: git(dir, 'rev-parse', 'HEAD'), values, said, took };
}

/** What the repository has committed so far becomes the PR's base. */
export function commitBase(repo, message) {
  git(repo.dir, 'commit', '-qam', message);
  return { ...repo, base: git(repo.dir, 'rev-parse', 'HEAD') };
}

/** The PR: `change(dir)` on a branch, committed; the repository is left at the head. */
export function openPr(repo, change, message) {
  git(repo.dir, 'checkout', '-q', '-b', 'pr');
  change(repo.dir);
  git(repo.dir, 'add', '-A');
  git(repo.dir, 'commit', '-qm', message);
  return { ...repo, head: git(repo.dir, 'rev-parse', 'HEAD') };
}

/** A file of the PR's tree with `from` replaced by `to` (which must be there). */
export function edit(dir, file, from, to) {
  const text = readFileSync(join(dir, file), 'utf8');
  assert.ok(text.includes(from), `${file} has no ${JSON.stringify(from)}`);
  writeFileSync(join(dir, file), text.replace(from, to));
}

function payload(pr, { fork = false } = {}) {
  const owner = fork ? 'contrib' : 'acme';
  return {
    action: 'synchronize',
    number: 7,
    pull_request: {
      number: 7,
      head: { sha: pr.head, ref: 'pr', repo: { full_name: `${owner}/ingress`, owner: { login: owner }, fork } },
      base: { sha: pr.base, ref: 'main', repo: { full_name: 'acme/ingress', owner: { login: 'acme' } } },
    },
    repository: { full_name: 'acme/ingress', name: 'ingress', owner: { login: 'acme' } },
  };
}

/** tailgate.yml on the PR; returns act's exit code and log, and the comment artifact. */
export async function gatePr(pr, { api, kind, fork = false, duration = '15s', env = {} } = {}) {
  const artifacts = mkdtempSync(join(tmpdir(), 'tg-wf-arts-'));
  const r = await runAct({
    repo: pr.dir,
    workflow: '.github/workflows/tailgate.yml',
    event: 'pull_request',
    payload: payload(pr, { fork }),
    apiUrl: api.url,
    artifacts,
    env: { TAILGATE_DURATION: duration, ...env },
    hostEnv: kind.env ?? process.env,
    timeoutMs: 40 * 60_000,
  });
  // The whole log beside the artifacts, for a failing case to be read.
  writeFileSync(join(artifacts, 'act.log'), r.log);
  const [run] = readdirSync(artifacts).filter((f) => f !== 'act.log');
  const art = (name, file) => {
    const f = run ? join(artifacts, run, name, file) : '';
    return f && existsSync(f) ? readFileSync(f, 'utf8') : null;
  };
  const names = run ? readdirSync(join(artifacts, run)) : [];
  // Each gate's comment: tailgate-comment-<matrix> (several gates in one run, one each).
  const gates = Object.fromEntries(
    names
      .filter((n) => n.startsWith('tailgate-comment-'))
      .map((n) => [
        n.slice('tailgate-comment-'.length),
        {
          comment: art(n, 'comment.md'),
          meta: JSON.parse(art(n, 'meta.json') ?? 'null'),
          dir: join(artifacts, run, n),
        },
      ]),
  );
  const [only] = Object.values(gates);
  return {
    ...r,
    gates,
    comment: only?.comment ?? null,
    meta: only?.meta ?? null,
    artifacts: names,
    logFile: join(artifacts, 'act.log'),
    why: `${join(artifacts, 'act.log')}\n${failureExcerpt(r.log)}\n${firstFailure(r.log)}`,
  };
}

/**
 * The adopter's tailgate-comment.yml on the workflow_run of gatePr's run `r`: GitHub serves
 * that run's comment artifacts (zipped, through the REST stand-in) and knows PR 7 with the
 * PR's head and changed files; the comment and check run land in api.state.
 */
export async function publishPr(pr, r, { api, runId = 9001 }) {
  api.state.artifacts[runId] = Object.entries(r.gates).map(([gate, g], i) => {
    const zip = join(mkdtempSync(join(tmpdir(), 'tg-wf-zip-')), 'a.zip');
    const z = spawnSync('zip', ['-r', '-q', zip, '.'], { cwd: g.dir, encoding: 'utf8' });
    assert.equal(z.status, 0, z.stderr);
    return { id: runId * 10 + i, name: `tailgate-comment-${gate}`, zip: readFileSync(zip) };
  });
  const owner = { login: 'acme' };
  api.state.pulls.push({
    number: 7,
    state: 'open',
    head: { sha: pr.head, ref: 'pr', repo: { owner } },
    base: { repo: { full_name: 'acme/ingress' } },
  });
  api.state.files[7] = git(pr.dir, 'diff', '--name-only', pr.base, pr.head)
    .split('\n')
    .map((filename) => ({ filename, status: 'modified' }));
  const c = await runAct({
    repo: pr.dir,
    workflow: '.github/workflows/tailgate-comment.yml',
    event: 'workflow_run',
    payload: {
      action: 'completed',
      workflow_run: {
        id: runId,
        name: 'tailgate',
        event: 'pull_request',
        conclusion: r.code === 0 ? 'success' : 'failure',
        head_sha: pr.head,
        head_branch: 'pr',
        head_repository: { owner, full_name: 'acme/ingress' },
      },
      repository: { full_name: 'acme/ingress', name: 'ingress', owner },
    },
    apiUrl: api.url,
  });
  return {
    ...c,
    comments: api.state.comments.filter((x) => x.issue === 7),
    checks: api.state.checkRuns.filter((x) => x.head_sha === pr.head),
  };
}

// A failing case names its log, but CI keeps only the test's own message: the log's
// failed steps (tailgate's INFRA ERROR block, act's failed step lines) go into it.
function failureExcerpt(log) {
  const lines = log.split('\n');
  const out = [];
  let until = 0; // a match inside the last excerpt is already shown
  lines.forEach((l, i) => {
    if (i < until || !/INFRA ERROR|ERROR: |❌ {2}Failure - /.test(l)) return;
    until = i + 40;
    out.push(...lines.slice(i, until), '…');
  });
  return out.join('\n').slice(-6000);
}

// CI shows a failing message's last lines only: they are the log's first INFRA ERROR
// (the step and its cause) and what its diagnose commands said, a few lines each.
function firstFailure(log) {
  const lines = log.split('\n').map((l) => l.replace(/^\[[^\]]*\]\s+\|?\s*/, ''));
  const at = lines.findIndex((l) => /INFRA ERROR/.test(l));
  if (at < 0) return '';
  const out = ['first failure:', lines[at].slice(0, 600)];
  for (let i = at + 1; i < Math.min(lines.length, at + 80) && !/INFRA ERROR/.test(lines[i]); i++)
    if (/^why \(/.test(lines[i]) || (/^\| /.test(lines[i]) && /^(why \(|\| )/.test(out.at(-1) ?? '')))
      out.push(lines[i].slice(0, 200));
  return out.join('\n');
}
