// Issue 68, item 3: the first PR is not red. A PR whose base commit has no tailgate
// config at all — no bench.yaml and no workflow calling gate.yml — runs its head alone;
// every cell has nothing to compare with. `tailgate gate` passes it (exit 0), its comment
// and check run titled "tailgate adopted: the next PR is compared with this one". A base
// that already calls gate.yml (a repository moving its config) stays red (exit 3), and so
// does a head alone whose run failed.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { checkOutput, conclusionOf } from '../../src/publish/check-run.js';
import { readCommentArtifact } from '../../src/publish/artifact.js';
import { runCli } from '../helpers/cli.js';
import { scratchDir } from '../helpers/scratch.js';

const ROOT = new URL('../../../', import.meta.url).pathname;
const RUNS = join(ROOT, 'tools/test/fixtures/runs');

const HEAD_BENCH = `apiVersion: tailgate/v1
kind: Bench
controllers:
  nginx-reload: { type: local, variant: nginx-reload }
scenarios:
  churn: { script: steady, rate: 100 }
matrices:
  local: { target: local, controllers: [nginx-reload], scenarios: [churn] }
`;

const git = (dir, ...a) => {
  const r = spawnSync('git', ['-C', dir, ...a], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim();
};

// A repository whose base commit holds `base` (files: text) and whose PR's head alone ran
// (paired-cell.sh without a base bench.yaml: <results>/head only).
function repo(base) {
  const dir = scratchDir('tg-adopt-');
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.email', 'dev@example.com');
  git(dir, 'config', 'user.name', 'dev');
  writeFileSync(join(dir, 'README.md'), '# ingress\n');
  for (const [f, text] of Object.entries(base)) {
    mkdirSync(join(dir, f, '..'), { recursive: true });
    writeFileSync(join(dir, f), text);
  }
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'base');
  const sha = git(dir, 'rev-parse', 'HEAD');
  // The PR's head: its bench.yaml (the working tree's) and its cells' results.
  writeFileSync(join(dir, 'bench.yaml'), HEAD_BENCH);
  cpSync(join(RUNS, 'head'), join(dir, 'results', 'pr', 'head'), { recursive: true });
  return { dir, sha };
}

async function gate({ dir, sha }) {
  const saved = { ...process.env };
  const cwd = process.cwd();
  const summary = join(dir, 'summary.md');
  Object.assign(process.env, { GITHUB_STEP_SUMMARY: summary, GITHUB_OUTPUT: '', TAILGATE_CONFIG: 'bench.yaml' });
  process.chdir(dir);
  try {
    const r = await runCli([
      'gate',
      '--mode',
      'concurrent',
      '--results',
      'results/pr',
      '--base-ref',
      sha,
      '--gate',
      'pr',
    ]);
    const out = join(dir, 'gate-out', 'comment');
    return {
      ...r,
      outDir: out,
      comment: readFileSync(join(out, 'comment.md'), 'utf8'),
      meta: JSON.parse(readFileSync(join(out, 'meta.json'), 'utf8')),
      verdict: JSON.parse(readFileSync(join(dir, 'gate-out', 'verdict.json'), 'utf8')),
      summary: readFileSync(summary, 'utf8'),
    };
  } finally {
    process.chdir(cwd);
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  }
}

test('the adopting PR — its base has no bench.yaml and no workflow calling gate.yml — passes with the adoption comment and a success check', async () => {
  // A base with other workflows (CI) but none of tailgate's.
  const r = await gate(repo({ '.github/workflows/ci.yml': 'on: push\njobs:\n  t: { runs-on: x, steps: [] }\n' }));
  assert.equal(r.code, 0, r.out);
  assert.match(
    r.out,
    /::notice::tailgate adopted \(the base commit [0-9a-f]{12} has no bench\.yaml and no workflow calling tailgate's gate\.yml\): exit 0/,
  );
  const [marker, heading] = r.comment.split('\n');
  assert.equal(marker, '<!-- tailgate:sticky-comment -->', 'the sticky marker stays first');
  assert.equal(heading, '### tailgate adopted: the next PR is compared with this one');
  assert.match(r.comment, /<details><summary>What the head measured alone<\/summary>/);
  assert.doesNotMatch(r.comment, /record a baseline/, "the report's own next step is not this PR's");
  assert.equal(r.summary, r.comment, 'the job summary says the same');
  // The commenter's check run: success, titled by the adoption.
  assert.equal(r.meta.exitCode, 0);
  assert.equal(conclusionOf(r.meta), 'success');
  assert.equal(checkOutput(r.comment, []).title, 'tailgate adopted: the next PR is compared with this one');
  // What the commenter accepts as an artifact (hostile input: its HTML, links, marker, meta).
  const art = readCommentArtifact(r.outDir, { repoUrl: 'https://github.com/acme/ingress' });
  assert.equal(art.body, r.comment);
  assert.equal(art.meta.exitCode, 0);
  // verdict.json is compare's own: nothing was compared.
  assert.equal(r.verdict.overall, 'no-baseline');
  assert.equal(r.verdict.exitCode, 3);
});

test('a base that already calls gate.yml (a config moved or renamed) or has the config is no adoption: no-baseline stays red (exit 3)', async () => {
  const caller =
    'on: pull_request\njobs:\n  gate:\n    uses: tailgate-dev/tailgate/.github/workflows/gate.yml@v0\n    with: { config: old/bench.yaml }\n';
  for (const base of [{ '.github/workflows/tailgate.yml': caller }, { 'bench.yaml': HEAD_BENCH }]) {
    const r = await gate(repo(base));
    assert.equal(r.code, 3, `${Object.keys(base)}: ${r.out}`);
    assert.doesNotMatch(r.comment, /tailgate adopted/);
    assert.equal(r.meta.exitCode, 3);
    assert.equal(conclusionOf(r.meta), 'failure');
  }
});
