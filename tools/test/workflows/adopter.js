// The adopter repository and its PRs for make test-workflows: what `tailgate init`
// writes plus the example workflows, a PR branch on it, and tailgate.yml run by act on
// the pull_request payload (the comment artifacts of each gate read back).
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
export function adopter(controller, { withBench = true, gates = ['pr'] } = {}) {
  const dir = scratchDir(`tg-wf-adopter-${controller}-`);
  const init = spawnSync(process.execPath, [CLI, 'init', '--controller', controller, '--dir', dir], {
    encoding: 'utf8',
  });
  assert.equal(init.status, 0, init.stderr);
  // init wrote the gates pr and pr-routes; a case gates pr alone unless it says otherwise
  // (each kind gate is minutes of CI).
  for (const [f, text] of Object.entries(workflowFiles(gates)))
    writeFileSync(join(dir, '.github', 'workflows', f), text);
  // The steady duet adds pairs while undecided (up to 10 of 45 s); the cases' 15 s runs are
  // noisier, so a no-op would take all 10: 4 keep a case's minutes (what it checks is the
  // workflow, not the gate's power — make perf measures that).
  if (withBench) edit(dir, 'bench.yaml', '    maxRepetitions: 10\n', '    maxRepetitions: 4\n');
  if (!withBench) rmSync(join(dir, 'bench.yaml'));
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.email', 'dev@example.com');
  git(dir, 'config', 'user.name', 'dev');
  git(dir, 'remote', 'add', 'origin', 'https://github.com/acme/ingress.git');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'tailgate');
  return { dir, base: git(dir, 'rev-parse', 'HEAD') };
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

export const catalogValues = (controller) =>
  readFileSync(join(ROOT, 'charts', 'controllers', controller, 'values.yaml'), 'utf8');

/** The adopter's own values file for its one helm controller, named in bench.yaml. */
export function useValues(dir, controller, values) {
  writeFileSync(join(dir, `${controller}-values.yaml`), values);
  edit(dir, 'bench.yaml', '    ingressClass: ', `    values: ${controller}-values.yaml\n    ingressClass: `);
}

/** An adopter whose base commit already has its own copy of the catalog's values. */
export function adopterWithValues(controller) {
  const repo = adopter(controller);
  useValues(repo.dir, controller, catalogValues(controller));
  git(repo.dir, 'add', '-A');
  git(repo.dir, 'commit', '-qm', 'own values');
  return { ...repo, base: git(repo.dir, 'rev-parse', 'HEAD') };
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
