// Issue 59, item 5 — one gate, one identity: a gate is named by its config and matrix (or
// gate.yml's `name` input) in its artifacts, download patterns, comment marker and check
// run; two calls of gate.yml whose names would collide are refused at plan, before any
// bench job. Before, the name was the matrix alone: two services' `pr` gates in one
// workflow shared every artifact and the one check `tailgate`, and the last to finish won.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import {
  checkGateIdentity,
  gateCalls,
  gateCollisions,
  gateIdentity,
  gateOfMarker,
} from '../../src/plan/gate-identity.js';
import { MARKER, markerFor } from '../../src/report/markdown.js';
import { checkBody } from '../../src/publish/artifact.js';
import { checkNameFor } from '../../src/publish/check-run.js';
import { publish } from '../helpers/fake-github.js';
import { scratchDir } from '../helpers/scratch.js';

const ROOT = new URL('../../../', import.meta.url).pathname;
const CLI = join(ROOT, 'tools', 'bin', 'tailgate.js');

test('one gate, one identity: naming — the default bench.yaml keeps the matrix (and its check names), another config adds its path, an explicit name wins', () => {
  assert.equal(gateIdentity({ config: 'bench.yaml', matrix: 'pr' }), 'pr');
  assert.equal(gateIdentity({ config: './bench.yaml', matrix: 'pr-failover' }), 'pr-failover');
  assert.equal(gateIdentity({}), 'pr');
  assert.equal(checkNameFor(gateIdentity({ matrix: 'pr' })), 'tailgate', 'the check adopters require is unchanged');
  assert.equal(checkNameFor(gateIdentity({ matrix: 'pr-routes' })), 'tailgate (pr-routes)');
  assert.equal(gateIdentity({ config: 'services/api/bench.yaml', matrix: 'pr' }), 'services-api.pr');
  assert.equal(gateIdentity({ config: 'services/Web_UI/bench.yml', matrix: 'pr' }), 'services-web-ui.pr');
  assert.equal(gateIdentity({ config: 'perf.yaml', matrix: 'pr' }), 'perf.pr');
  assert.equal(checkNameFor('services-api.pr'), 'tailgate (services-api.pr)');
  assert.equal(gateIdentity({ config: 'services/api/bench.yaml', matrix: 'pr', name: 'api' }), 'api');
  assert.throws(() => gateIdentity({ name: 'API_gate' }), /input name: "API_gate" is not a gate name/);
  assert.throws(
    () => gateIdentity({ config: `${'deep/'.repeat(20)}bench.yaml`, matrix: 'pr' }),
    /at most 80 characters\); give the call a shorter `name` input/,
  );
  // '_' separates gate and cell in artifact names: no identity may hold one.
  for (const config of ['a_b/bench.yaml', 'x__y.yaml']) assert.doesNotMatch(gateIdentity({ config }), /_/);
});

const call = (job, w) =>
  `  ${job}:\n    uses: tailgate-dev/tailgate/.github/workflows/gate.yml@v0\n    with: ${JSON.stringify(w)}\n`;
const workflow = (...jobs) => `name: tailgate\non: { pull_request: }\njobs:\n${jobs.join('')}`;

test('one gate, one identity: collision refusal — two calls of one name are refused naming both jobs; distinct configs or a name input pass', () => {
  const two = gateCalls(
    workflow(
      call('api', { config: 'services/api/bench.yaml', matrix: 'pr' }),
      call('web', { config: 'services/web/bench.yaml', matrix: 'pr' }),
      `  lint:\n    runs-on: ubuntu-24.04\n    steps: [{ run: make lint }]\n`,
    ),
    'tailgate.yml',
  );
  assert.deepEqual(
    two.map((c) => c.gate),
    ['services-api.pr', 'services-web.pr'],
  );
  assert.deepEqual(gateCollisions(two, 'services-api.pr'), []);

  // The monorepo's mistake: each service's pr gate left at the defaults.
  const same = gateCalls(
    workflow(call('api', { matrix: 'pr' }), call('web', { config: './bench.yaml' })),
    'tailgate.yml',
  );
  const [problem] = gateCollisions(same, 'pr');
  assert.match(problem, /gate "pr" is called 2 times: tailgate\.yml job api .*; tailgate\.yml job web /);
  assert.match(problem, /give each call its own `name` input/);

  // Two paths that slug alike collide too; a name input separates them.
  const alike = [call('a', { config: 'a-b/bench.yaml' }), call('b', { config: 'a/b/bench.yaml' })];
  assert.equal(gateCollisions(gateCalls(workflow(...alike), 'w.yml'), 'a-b.pr').length, 1);
  const named = [alike[0], call('b', { config: 'a/b/bench.yaml', name: 'a-b-2' })];
  assert.deepEqual(gateCollisions(gateCalls(workflow(...named), 'w.yml'), 'a-b.pr'), []);

  // An input set at run time cannot be named before it runs: listed, never guessed.
  const dyn = gateCalls(workflow(call('m', { matrix: '${{ matrix.m }}' })), 'w.yml');
  assert.deepEqual(dyn[0].unknown, ['matrix']);
});

// A scratch repository: two services' bench.yaml and the caller's workflow.
function monorepo(jobs) {
  const dir = scratchDir('tg-gate-id-');
  const bench = `apiVersion: tailgate/v1
kind: Bench
controllers:
  nginx-reload: { type: local, variant: nginx-reload }
scenarios:
  steady: { script: steady, rate: 100, duration: 5s }
matrices:
  pr: { target: local, controllers: [nginx-reload], scenarios: [steady], repetitions: 2, compare: paired }
`;
  for (const svc of ['api', 'web']) {
    mkdirSync(join(dir, 'services', svc), { recursive: true });
    writeFileSync(join(dir, 'services', svc, 'bench.yaml'), bench);
  }
  mkdirSync(join(dir, '.github', 'workflows'), { recursive: true });
  writeFileSync(join(dir, '.github', 'workflows', 'tailgate.yml'), workflow(...jobs));
  writeFileSync(join(dir, '.github', 'workflows', 'other.yml'), workflow(call('x', { matrix: 'pr' }), call('y', {})));
  return dir;
}

const plan = (dir, ...args) => {
  const env = { ...process.env };
  delete env.GITHUB_OUTPUT;
  return spawnSync(process.execPath, [CLI, 'plan', '--matrix', 'pr', ...args], {
    cwd: dir,
    encoding: 'utf8',
    env,
  });
};
const REF = 'acme/mono/.github/workflows/tailgate.yml@refs/pull/7/merge';

test("one gate, one identity: collision refusal at plan — gate.yml's gate-name step exits 2 before any bench job; gate= only for a name no other call has", () => {
  const ok = monorepo([
    call('api', { config: 'services/api/bench.yaml' }),
    call('web', { config: 'services/web/bench.yaml' }),
  ]);
  const a = plan(ok, '--gate', '--github-output', '--config', 'services/api/bench.yaml', '--workflow', REF);
  assert.equal(a.status, 0, a.stderr);
  assert.equal(a.stdout, 'gate=services-api.pr\n');
  const p = plan(ok, '--github-output', '--config', 'services/api/bench.yaml');
  assert.match(p.stdout, /^compare=paired$/m, 'the plan itself is unchanged');
  // Every workflow file counts (issue 67: gate-name-per-commit.test.js): other.yml's two
  // default gates are gate "pr", which collide with each other, not with this one.
  assert.equal(checkGateIdentity({ root: ok, gate: 'services-api.pr', workflowRef: REF }).problems.length, 0);
  assert.equal(checkGateIdentity({ root: ok, gate: 'pr', workflowRef: REF }).problems.length, 1);

  const clash = monorepo([
    call('api', { config: 'services/api/bench.yaml', matrix: 'pr' }),
    call('web', { config: 'services/api/bench.yaml' }),
  ]);
  const r = plan(clash, '--gate', '--github-output', '--config', 'services/api/bench.yaml', '--workflow', REF);
  assert.equal(r.status, 2, r.stdout + r.stderr);
  assert.doesNotMatch(r.stdout, /^gate=/m, 'no name: nothing of this gate is named, its bench jobs never start');
  assert.match(r.stderr, /two gates would share one name/);
  assert.match(r.stderr, /\.github\/workflows\/tailgate\.yml job api .*job web/);
  // Either call's name input resolves it.
  const named = plan(
    clash,
    '--gate',
    '--config',
    'services/api/bench.yaml',
    '--workflow',
    REF,
    '--gate-name',
    'api-canary',
  );
  assert.equal(named.status, 0, named.stderr);
  assert.match(named.stdout, /^gate=api-canary$/m);
});

test('one gate, one identity: marker parsing — each gate its own marker, read back exactly; the pr gate keeps the bare one', () => {
  assert.equal(gateOfMarker(`${MARKER}\n### tailgate`), 'pr');
  assert.equal(markerFor('pr'), MARKER);
  for (const gate of ['pr-failover', 'services-api.pr', `svc-${'x'.repeat(70)}.pr`])
    assert.equal(gateOfMarker(`${markerFor(gate)}\n### tailgate ✅`), gate);
  // A marker quoted later in someone's comment is not tailgate's.
  assert.equal(gateOfMarker(`> quoting\n${markerFor('services-api.pr')}`), null);
  assert.equal(gateOfMarker('<!-- tailgate:sticky-comment:services-api.pr -->trailing'), null);
  // A long identity's marker is one the publisher accepts.
  assert.doesNotThrow(() =>
    checkBody(
      `${markerFor(`svc-${'x'.repeat(70)}.pr`)}\n### tailgate ✅ no regression\n`,
      'https://github.com/o/r',
      `svc-${'x'.repeat(70)}.pr`,
    ),
  );
});

test("one gate, one identity: the publisher — a service's gate gets its own comment and check, and refuses the other service's artifact", async () => {
  const art = (gate) => {
    const dir = scratchDir('tg-gate-id-art-');
    writeFileSync(join(dir, 'comment.md'), `${markerFor(gate)}\n### tailgate ❌ regression\n`);
    writeFileSync(
      join(dir, 'meta.json'),
      JSON.stringify({ kind: 'tailgate.comment', schemaVersion: 1, overall: 'regression', exitCode: 1, gate }),
    );
    return dir;
  };
  const api = await publish(art('services-api.pr'), 'services-api.pr');
  assert.equal(api.check.name, 'tailgate (services-api.pr)');
  assert.equal(api.check.conclusion, 'failure');
  assert.ok(api.comment.body.startsWith('<!-- tailgate:sticky-comment:services-api.pr -->'));
  await assert.rejects(publish(art('services-web.pr'), 'services-api.pr'), /it is gate "services-web\.pr"'s/);
});

test("one gate, one identity: gate.yml names artifacts, patterns and the comment by plan's gate output, never the matrix alone", () => {
  const text = readFileSync(join(ROOT, '.github', 'workflows', 'gate.yml'), 'utf8');
  const doc = parse(text, { merge: true });
  assert.equal(doc.jobs.plan.outputs.gate, '${{ steps.gate-name.outputs.gate }}');
  const ids = doc.jobs.plan.steps.map((s) => s.id).filter(Boolean);
  assert.deepEqual(ids, ['gate-name', 'plan'], 'named before the plan: a refused bench.yaml still has its name');
  const naming = doc.jobs.plan.steps.find((s) => s.id === 'gate-name');
  assert.equal(naming.with.command, 'gate-name');
  assert.equal(naming.with['gate-name'], '${{ inputs.name }}');
  assert.equal(naming.with['workflow-ref'], '${{ github.workflow_ref }}');
  const named = [];
  for (const [job, spec] of Object.entries(doc.jobs))
    for (const s of spec.steps ?? []) {
      const n = s.with?.name ?? s.with?.pattern;
      if (/artifact/.test(s.uses ?? '') && n) named.push([job, n]);
    }
  assert.ok(named.length >= 5, JSON.stringify(named));
  for (const [job, n] of named) {
    assert.match(n, /needs\.plan\.outputs\.gate/, `${job}: ${n}`);
    assert.doesNotMatch(n, /inputs\.matrix/, `${job}: ${n}`);
    assert.ok((doc.jobs[job].needs ?? []).includes('plan'), `${job} needs plan for its gate's name`);
  }
  const gateStep = doc.jobs.gate.steps.find((s) => s.id === 'gate');
  assert.equal(gateStep.with['gate-name'], '${{ needs.plan.outputs.gate }}');
});

test("one gate, one identity: `tailgate gate --gate` puts the gate's name in the comment's marker and the artifact's meta (without it, the matrix's)", () => {
  const RUNS = join(ROOT, 'tools/test/fixtures/runs');
  const gate = (...extra) => {
    const out = join(scratchDir('tg-gate-id-gate-'), 'gate');
    const env = { ...process.env, GITHUB_STEP_SUMMARY: '', GITHUB_OUTPUT: '' };
    const r = spawnSync(
      process.execPath,
      [
        CLI,
        'gate',
        '--out',
        out,
        '--mode',
        'paired',
        '--base-results',
        join(RUNS, 'base'),
        '--results',
        join(RUNS, 'head'),
        ...extra,
      ],
      { encoding: 'utf8', env, cwd: ROOT },
    );
    assert.equal(r.status, 1, r.stdout + r.stderr);
    return {
      meta: JSON.parse(readFileSync(join(out, 'comment', 'meta.json'), 'utf8')),
      body: readFileSync(join(out, 'comment', 'comment.md'), 'utf8'),
    };
  };
  const api = gate('--gate', 'services-api.pr');
  assert.equal(api.meta.gate, 'services-api.pr');
  assert.equal(gateOfMarker(api.body), 'services-api.pr');
  const plain = gate();
  assert.equal(plain.meta.gate, undefined);
  assert.ok(plain.body.startsWith(`${MARKER}\n`));
  const bad = spawnSync(process.execPath, [CLI, 'gate', '--results', RUNS, '--mode', 'paired', '--gate', 'a_b'], {
    encoding: 'utf8',
  });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--gate: "a_b" is not a gate name/);
});
