// Runs a real workflow file with act (nektos/act, built from its Go module) on this
// machine: jobs on the host (ubuntu-24.04 mapped to -self-hosted), every pinned GitHub
// action mapped onto its stand-in (standins/), tailgate's own reusable workflows and
// composite action onto a tree of this checkout, GitHub's REST API onto the stand-in.
// act has no job.workflow_repository / job.workflow_sha (the called workflow's own source,
// which tailgate's reusable workflows check their scripts out at): the tree's copies of
// those workflows are given them as GitHub would evaluate them (feedWorkflowSource).
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../helpers/scratch.js';
import { packageSource } from '../../src/release-ref.js';

export const ROOT = new URL('../../../', import.meta.url).pathname;
export const ACT = join(ROOT, '.tools', 'bin', 'act');
/** Where init's workflows call tailgate: { repository, ref } of this checkout's package. */
export const TAILGATE = packageSource(ROOT);
/** The commit a package packed from this checkout names in release.json (release.sh pack): its HEAD. */
export const RELEASE_COMMIT = spawnSync('git', ['-C', ROOT, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).stdout.trim();
const PINS = JSON.parse(readFileSync(join(ROOT, 'tools', 'ci', 'action-pins.json'), 'utf8'));
const STANDINS = {
  'actions/cache': 'cache',
  'actions/checkout': 'checkout',
  'actions/setup-node': 'setup-node',
  'actions/setup-go': 'setup-go',
  'actions/upload-artifact': 'upload-artifact',
  'actions/download-artifact': 'download-artifact',
  'actions/github-script': 'github-script',
};

/** Why act cannot run here (one line), or null. */
export function actMissing() {
  if (!existsSync(ACT)) return `act not installed (${ACT}; make test-workflows installs it)`;
  return null;
}

let prepared;
// The stand-ins with the repository's node_modules beside them (node resolves upward),
// and the files of this checkout as `tailgate-dev/tailgate` at any ref.
function prepare() {
  if (prepared) return prepared;
  const dir = scratchDir('tg-act-');
  cpSync(join(ROOT, 'tools', 'test', 'workflows', 'standins'), join(dir, 'standins'), { recursive: true });
  // act copies an action's folder into its cache: each stand-in carries a link to the
  // repository's node_modules (absolute, so it resolves from the copy too).
  for (const d of Object.values(STANDINS))
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'standins', d, 'node_modules'));
  const tree = copyCheckout(join(dir, 'repos', 'tailgate-dev', 'tailgate'));
  seedTools(tree); // the actions/cache stand-in always misses
  // A repository with a commit and the caller's tag, as the one on GitHub: the checkout
  // stand-in checks a ref out of it, and tailgate-source.sh compares that commit.
  const sha = gitRepo(tree, { owner: 'tailgate-dev', name: 'tailgate' });
  spawnSync('git', ['-C', tree, 'tag', TAILGATE.ref]);
  feedWorkflowSource(tree, { repository: TAILGATE.repository, sha });
  prepared = { dir, tree, repos: join(dir, 'repos'), sha };
  return prepared;
}

/**
 * What GitHub gives the reusable workflows of `tree` called from another repository:
 * job.workflow_repository and job.workflow_sha as literals in the tree's copies (act
 * evaluates them to ''). After the commit, so `sha` names the tree's own commit.
 */
export function feedWorkflowSource(tree, { repository, sha }) {
  const dir = join(tree, '.github', 'workflows');
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.yml'))) {
    const text = readFileSync(join(dir, f), 'utf8');
    const fed = text
      .replaceAll('job.workflow_repository', `'${repository}'`)
      .replaceAll('job.workflow_sha', `'${sha}'`);
    if (fed !== text) writeFileSync(join(dir, f), fed);
  }
}

// The files of this checkout (tracked and new, as git lists them) copied to `dest`.
function copyCheckout(dest) {
  mkdirSync(dest, { recursive: true });
  const files = spawnSync('git', ['-C', ROOT, 'ls-files', '-co', '--exclude-standard'], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter(Boolean);
  for (const f of files) if (existsSync(join(ROOT, f))) cpSync(join(ROOT, f), join(dest, f), { recursive: true });
  return dest;
}

/** A fresh copy of this checkout, to run tailgate's own workflows in. */
export function preparedTree(prefix) {
  return copyCheckout(scratchDir(prefix));
}

/**
 * What a warm actions/cache entry would restore: the pinned k6 and helm setup installed.
 * Links, never copies into this checkout's own .tools. (act's own copy of a workflow's
 * repository leaves out what .gitignore names, .tools too: this seeds trees the checkout
 * stand-in copies.)
 */
export function seedTools(tree) {
  mkdirSync(join(tree, '.tools', 'bin'), { recursive: true });
  for (const tool of ['k6', 'helm'])
    if (existsSync(join(ROOT, '.tools', 'bin', tool)) && !existsSync(join(tree, '.tools', 'bin', tool)))
      symlinkSync(join(ROOT, '.tools', 'bin', tool), join(tree, '.tools', 'bin', tool));
}

/** A git repository at `dir` (the workflow's repository), with GitHub's remote name. */
export function gitRepo(dir, { owner = 'acme', name = 'ingress' } = {}) {
  const git = (...a) => spawnSync('git', ['-C', dir, ...a], { encoding: 'utf8' });
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'ci@example.com');
  git('config', 'user.name', 'ci');
  git('remote', 'add', 'origin', `https://github.com/${owner}/${name}.git`);
  git('add', '-A');
  git('commit', '-qm', 'init');
  return git('rev-parse', 'HEAD').stdout.trim();
}

/**
 * act <event> in `repo` with `workflow` and the event payload; returns { code, log }.
 * env: extra environment for the jobs (GITHUB_API_URL is the REST stand-in's); secrets:
 * the repository's secrets beside GITHUB_TOKEN.
 */
export async function runAct({
  repo,
  workflow,
  event,
  payload,
  apiUrl,
  env = {},
  artifacts = null,
  job = null,
  hostEnv = process.env,
  platforms = ['ubuntu-24.04=-self-hosted'],
  vars = {},
  secrets = {},
  timeoutMs = 10 * 60_000,
}) {
  const { dir, tree, repos } = prepare();
  const eventFile = join(scratchDir('tg-act-event-'), 'event.json');
  writeFileSync(eventFile, JSON.stringify(payload));
  const maps = [
    ...Object.entries(STANDINS).map(([a, d]) => `${a}@${PINS[a].sha}=${join(dir, 'standins', d)}`),
    // The ref init writes into callers (release-ref.js) — the moving tag from a checkout, the
    // release's commit from a packed release: this checkout stands in for both.
    `${TAILGATE.repository}@${TAILGATE.ref}=${tree}`,
    `${TAILGATE.repository}@${RELEASE_COMMIT}=${tree}`,
  ];
  const args = [
    event,
    '-W',
    workflow,
    '-e',
    eventFile,
    ...platforms.flatMap((p) => ['-P', p]),
    ...Object.entries(vars).flatMap(([k, v]) => ['--var', `${k}=${v}`]),
    '-s',
    'GITHUB_TOKEN=standin-token',
    ...Object.entries(secrets).flatMap(([k, v]) => ['-s', `${k}=${v}`]),
    '--env',
    `GITHUB_API_URL=${apiUrl}`,
    '--env',
    `STANDIN_REPOS=${repos}`,
    ...(artifacts ? ['--env', `STANDIN_ARTIFACTS=${artifacts}`] : []),
    ...(job ? ['-j', job] : []),
    ...Object.entries(env).flatMap(([k, v]) => ['--env', `${k}=${v}`]),
    ...maps.flatMap((m) => ['--local-repository', m]),
  ];
  // Asynchronous: the REST stand-in answers from this same process meanwhile.
  return new Promise((resolve) => {
    // act hands its own environment to host jobs: hostEnv is how kind's wrapper reaches them.
    // Without NODE_TEST_CONTEXT: a `node --test` in a job (ci.yml's make test) would take
    // itself for a child of this test run and skip every file.
    const { NODE_TEST_CONTEXT: _, ...env } = hostEnv;
    const child = spawn(ACT, args, { cwd: repo, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    child.stdout.on('data', (d) => (log += d));
    child.stderr.on('data', (d) => (log += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, log });
    });
  });
}

// The environment tools/scripts/kind-env.sh leaves (wrapper, kubectl and docker shim on
// PATH, offline images): act hands it to the jobs. Null with a reason where it cannot.
export function kindEnvironment() {
  const r = spawnSync(
    'bash',
    ['-c', 'source tools/scripts/kind-env.sh >/dev/null 2>&1; echo "SKIP=$KIND_SKIP"; env -0'],
    { cwd: ROOT, encoding: 'utf8', maxBuffer: 16 << 20 },
  );
  const [first, ...rest] = r.stdout.split('\n');
  const why = first.replace(/^SKIP=/, '');
  if (r.status !== 0 || why) return { skip: why || 'kind-env.sh failed' };
  const env = Object.fromEntries(
    rest
      .join('\n')
      .split('\0')
      .filter(Boolean)
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  );
  return {
    skip: false,
    env: {
      ...env,
      OFFLINE_KIND_DIR: env.OFFLINE_KIND_DIR || join(ROOT, '..', 'shared', 'offline-kind'),
      TAILGATE_CHARTS_DIR: env.TAILGATE_CHARTS_DIR || join(ROOT, '..', 'shared', 'charts'),
    },
  };
}
