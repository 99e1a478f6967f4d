// The workflows' safety properties, checked by walking their YAML, plus actionlint
// and zizmor (both clean on ours, both loud on a known-bad fixture).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { which } from '../../src/exec/tools.js';

const ROOT = new URL('../../../', import.meta.url).pathname;
const DIR = join(ROOT, '.github', 'workflows');
const BAD = new URL('../fixtures/workflows/bad-workflow.yml', import.meta.url).pathname;
const files = readdirSync(DIR).filter((f) => f.endsWith('.yml'));
const wf = Object.fromEntries(
  files.map((f) => [f, { text: readFileSync(join(DIR, f), 'utf8'), doc: parse(readFileSync(join(DIR, f), 'utf8')) }]),
);
const steps = (doc) => Object.values(doc.jobs).flatMap((j) => j.steps ?? []);

// comment.yml alone declares no permissions: a called job that asked for checks: write
// would not start under a caller written before the check run, so it takes exactly what
// its caller's job grants — and every caller grants exactly these, no more.
const COMMENT_GRANTS = { actions: 'read', 'pull-requests': 'write', checks: 'write' };

test('workflows: top-level least-privilege permissions; write scopes only per job', () => {
  for (const [f, { doc }] of Object.entries(wf)) {
    if (f === 'comment.yml') {
      assert.equal(doc.permissions, undefined, 'comment.yml: its caller decides');
      assert.equal(doc.jobs.comment.permissions, undefined, 'comment.yml: its caller decides');
      continue;
    }
    assert.ok(doc.permissions !== undefined, `${f}: top-level permissions`);
    const top = doc.permissions ?? {};
    assert.ok(
      typeof top === 'object' && Object.values(top).every((v) => v === 'read'),
      `${f}: top-level permissions must be read-only, got ${JSON.stringify(top)}`,
    );
  }
  const writers = Object.entries(wf).flatMap(([f, { doc }]) =>
    Object.entries(doc.jobs)
      .filter(([, j]) => Object.values(j.permissions ?? {}).includes('write'))
      .map(([n]) => `${f}:${n}`),
  );
  assert.deepEqual(writers.sort(), [
    'bench-comment.yml:comment',
    'bench-dispatch.yml:dispatch',
    'bench-metal.yml:metal',
    'dispatch.yml:baselines',
    'nightly.yml:history',
    'release.yml:release',
  ]);
  // The release writes only from a version tag, behind an environment's reviewers.
  const rel = wf['release.yml'].doc;
  assert.deepEqual(rel.on, { push: { tags: ['v*.*.*'] } });
  assert.deepEqual(rel.jobs.release.permissions, { contents: 'write', 'id-token': 'write' });
  assert.equal(rel.jobs.release.environment, 'release');
  const callers = [
    ['bench-comment.yml', wf['bench-comment.yml'].doc],
    [
      'examples/adopter tailgate-comment.yml',
      parse(readFileSync(join(ADOPTER, 'workflows', 'tailgate-comment.yml'), 'utf8')),
    ],
  ];
  for (const [f, doc] of callers) {
    const [job] = Object.values(doc.jobs).filter((j) => /comment\.yml/.test(j.uses ?? ''));
    assert.deepEqual(job?.permissions, COMMENT_GRANTS, `${f}: the job calling comment.yml grants exactly these`);
  }
  // History is written only from the default branch: the bench job's branch step decides
  // (branch-guard.sh, which knows a schedule's payload names no repository).
  assert.equal(wf['nightly.yml'].doc.jobs.history.if, "inputs.history && needs.bench.outputs.default-branch == 'true'");
  assert.equal(
    wf['nightly.yml'].doc.jobs.bench.outputs['default-branch'],
    '${{ steps.branch.outputs.default-branch }}',
  );
  assert.ok(!wf['bench-metal.yml'].doc.on.pull_request && !wf['bench-metal.yml'].doc.on.pull_request_target);
});

test('workflows: every job and every long step has timeout-minutes', () => {
  for (const [f, { doc }] of Object.entries(wf)) {
    for (const [name, job] of Object.entries(doc.jobs)) {
      if (job.uses) continue; // a reusable workflow call: its own jobs carry timeouts
      assert.ok(job['timeout-minutes'] > 0, `${f}:${name} timeout-minutes`);
      for (const s of job.steps)
        if (/make |bench-cell|gate\.sh|tailgate\.js run|\.ci\/run/.test(s.run ?? ''))
          assert.ok(s['timeout-minutes'] > 0, `${f}:${name} step "${s.run}" needs timeout-minutes`);
    }
  }
});

test('workflows: every uses: is pinned to a full commit SHA with a version comment', () => {
  for (const [f, { text }] of Object.entries(wf)) {
    for (const m of text.matchAll(/uses:\s*([^\s#]+)(.*)$/gm)) {
      if (m[1].startsWith('./')) continue;
      assert.match(m[1], /^[\w.-]+\/[\w.-]+(\/[\w./-]+)?@[0-9a-f]{40}$/, `${f}: ${m[1]} is not pinned to a SHA`);
      assert.match(m[2], /#\s*v\d+\.\d+\.\d+/, `${f}: ${m[1]} lacks a # vX.Y.Z comment`);
    }
  }
});

test('workflows: every action at its recorded release (tag -> SHA checked upstream), on node24, jobs on the current Node LTS', () => {
  const pins = JSON.parse(readFileSync(join(ROOT, 'tools', 'ci', 'action-pins.json'), 'utf8'));
  for (const [f, { text }] of Object.entries(wf)) {
    for (const m of text.matchAll(/uses:\s*([\w.-]+\/[\w.-]+)@([0-9a-f]{40})\s*#\s*(v[\d.]+)/gm)) {
      const pin = pins[m[1]];
      assert.ok(pin, `${f}: ${m[1]} is not in tools/ci/action-pins.json (record its tag, SHA and runs.using there)`);
      assert.equal(m[2], pin.sha, `${f}: ${m[1]} SHA differs from the recorded ${pin.version}`);
      assert.equal(m[3], pin.version, `${f}: ${m[1]} comment says ${m[3]}, the SHA is ${pin.version}`);
      assert.ok(['node24', 'composite', 'docker'].includes(pin.using), `${m[1]} runs on ${pin.using}`);
    }
    for (const m of text.matchAll(/node-version:\s*(\S+)/g))
      assert.equal(m[1], '24', `${f}: node-version ${m[1]}; jobs run on the current LTS (24)`);
  }
});

test('workflows: no ${{ }} of event data or inputs inside run: or script:', () => {
  for (const [f, { doc }] of Object.entries(wf)) {
    for (const s of steps(doc)) {
      const code = `${s.run ?? ''}${s.with?.script ?? ''}`;
      assert.ok(
        !/\$\{\{/.test(code),
        `${f}: step "${s.name ?? s.run ?? s.uses}" interpolates an expression into code; pass it through env:`,
      );
    }
  }
});

test('workflows: PR workflows cancel superseded runs; bare metal is never reachable from pull requests', () => {
  for (const f of ['bench-pr.yml', 'ci.yml']) assert.equal(wf[f].doc.concurrency['cancel-in-progress'], true, f);
  const metal = wf['bench-metal.yml'].doc;
  const triggers = Object.keys(metal.on);
  assert.deepEqual(triggers.sort(), ['push', 'schedule', 'workflow_dispatch']);
  assert.deepEqual(metal.on.push.branches, ['main']);
  assert.equal(metal.jobs.metal.uses, './.github/workflows/nightly.yml');
  assert.equal(metal.jobs.metal.with.environment, 'bench-metal', 'required reviewers live on this environment');
  assert.ok(JSON.parse(metal.jobs.metal.with['runs-on']).labels.includes('self-hosted'));
  for (const [f, { doc }] of Object.entries(wf)) {
    const on = Object.keys(doc.on);
    assert.ok(!on.includes('pull_request_target'), `${f}: pull_request_target runs PR code with secrets`);
    if (on.includes('pull_request'))
      assert.ok(
        !JSON.stringify(doc.jobs).includes('self-hosted'),
        `${f}: a PR workflow must not use self-hosted runners`,
      );
  }
});

test('workflows: cluster teardown and artifact uploads run under always()', () => {
  for (const [f, { doc }] of Object.entries(wf)) {
    for (const s of steps(doc)) {
      if (/teardown\.sh/.test(s.run ?? '') || s.with?.command === 'teardown')
        assert.match(String(s.if), /always\(\)/, `${f}: teardown must be if: always()`);
      if (String(s.uses).startsWith('actions/upload-artifact'))
        assert.match(String(s.if), /always\(\)/, `${f}: uploads must be if: always()`);
    }
  }
  for (const job of ['bench', 'confirm']) {
    const cell = wf['gate.yml'].doc.jobs[job].steps;
    const at = (command) => cell.findIndex((s) => s.with?.command === command);
    assert.ok(at('teardown') > at('cell') && at('cell') > 0, `gate.yml:${job} tears the cluster down after the cell`);
  }
});

// One pin: each job checks tailgate out at the workflow's own source (job.workflow_*), the
// tailgate-ref/-repository inputs an override only, and its first tailgate step checks that
// the checkout is the workflow's own commit (tailgate-source.sh refuses another).
const OWN_SOURCE = {
  repository: '${{ inputs.tailgate-repository || job.workflow_repository }}',
  ref: '${{ inputs.tailgate-ref || job.workflow_sha }}',
};
function assertOwnSource(job, where) {
  const at = job.steps.findIndex((s) => s.with?.path === '.tailgate');
  const checkout = job.steps[at];
  assert.equal(
    checkout?.with.repository,
    OWN_SOURCE.repository,
    `${where}: tailgate from the workflow's own repository`,
  );
  assert.equal(checkout.with.ref, OWN_SOURCE.ref, `${where}: tailgate at the workflow's own commit`);
  assert.equal(checkout.with['persist-credentials'], false, `${where}: tailgate's checkout keeps no token`);
  assert.deepEqual(
    job.steps[at + 1],
    {
      uses: './.tailgate',
      with: {
        command: 'source',
        'workflow-repository': '${{ job.workflow_repository }}',
        'workflow-sha': '${{ job.workflow_sha }}',
        'tailgate-repository': '${{ inputs.tailgate-repository }}',
        'tailgate-ref': '${{ inputs.tailgate-ref }}',
      },
    },
    `${where}: the step after the checkout checks it is the workflow's own commit`,
  );
}

test("reusable workflows: one pin — tailgate at the workflow's own commit, its tailgate-ref and tailgate-repository overrides empty by default; no caller of ours names them", () => {
  for (const f of ['gate.yml', 'comment.yml', 'dispatch.yml', 'nightly.yml']) {
    const { doc } = wf[f];
    const inputs = doc.on.workflow_call.inputs;
    for (const k of ['tailgate-ref', 'tailgate-repository'])
      assert.equal(inputs[k].default, '', `${f}: ${k} is an override, empty by default`);
    for (const [name, job] of Object.entries(doc.jobs)) assertOwnSource(job, `${f}:${name}`);
  }
  for (const f of ['bench-pr.yml', 'bench-comment.yml', 'bench-dispatch.yml', 'bench-metal.yml'])
    for (const job of Object.values(wf[f].doc.jobs))
      assert.ok(
        !job.with?.['tailgate-ref'] && !job.with?.['tailgate-repository'],
        `${f}: the called workflow's own commit, no second ref`,
      );
  // actionlint does not know job.workflow_* yet: its config lets that one finding pass, there only.
  const lint = parse(readFileSync(join(ROOT, '.github', 'actionlint.yaml'), 'utf8'));
  assert.deepEqual(
    Object.values(lint.paths).map((p) => p.ignore),
    [['property "workflow_(repository|sha)" is not defined in object type']],
  );
});

// One runs-on format: a label, or JSON (labels, a group) where the value starts with [ or {.
const RUNS_ON =
  "${{ (startsWith(inputs.runs-on, '[') || startsWith(inputs.runs-on, '{')) && fromJSON(inputs.runs-on) || inputs.runs-on }}";
test('reusable gate, dispatch and nightly: one runs-on format in every job — a label or a JSON list or group', () => {
  for (const f of ['gate.yml', 'dispatch.yml', 'nightly.yml']) {
    const { doc } = wf[f];
    for (const [name, job] of Object.entries(doc.jobs)) assert.equal(job['runs-on'], RUNS_ON, `${f}:${name}`);
    assert.match(
      doc.on.workflow_call.inputs['runs-on'].description,
      /one format in gate\.yml, dispatch\.yml and nightly\.yml/,
    );
  }
});

test('reusable gate: every step is the composite action, inputs reach scripts via env', () => {
  const { doc } = wf['gate.yml'];
  assert.deepEqual(Object.keys(doc.on), ['workflow_call']);
  for (const [name, job] of Object.entries(doc.jobs)) {
    const local = job.steps.filter((s) => String(s.uses).startsWith('./'));
    assert.ok(local.length && local.every((s) => s.uses === './.tailgate'), `${name}: only the composite action`);
    assert.ok(
      job.steps.every((s) => !s.run),
      `${name}: no run: steps (the action's scripts run on a laptop too)`,
    );
  }
  // tailgate's own PRs run the same workflow, with tailgate from the PR's merge commit
  // (gate.yml's own commit).
  const self = wf['bench-pr.yml'].doc.jobs.gate;
  assert.equal(self.uses, './.github/workflows/gate.yml');
  const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8'));
  assert.equal(action.runs.using, 'composite');
  for (const step of action.runs.steps) {
    assert.ok(!/\$\{\{/.test(step.run), 'action.yml: inputs reach the script through env only');
    assert.match(step.run, /tools\/ci\/action\.sh/);
  }
});

// dispatch.yml and nightly.yml: what the adopter's manual and nightly callers (and
// tailgate's own bench-dispatch/bench-metal) call. Typed inputs, tailgate from
// tailgate-ref, no logic in YAML: every run: is one script of tailgate's checkout, fed
// through env; a caller grants exactly what the called jobs ask for.
const REUSABLE = { 'dispatch.yml': 'bench-dispatch.yml', 'nightly.yml': 'bench-metal.yml' };
const TYPES = new Set(['string', 'number', 'boolean']);

/** The permissions a call of `called` must grant: the union of its jobs' own. */
function grantsNeeded(called) {
  const need = {};
  for (const job of Object.values(called.jobs))
    for (const [scope, level] of Object.entries(job.permissions ?? called.permissions ?? {}))
      if (need[scope] !== 'write') need[scope] = level;
  return need;
}

/** A caller's job of `file` is well-formed: declared inputs only, no second ref, the grants. */
function assertCallsReusable(job, file, where) {
  const called = wf[file].doc;
  const inputs = called.on.workflow_call.inputs;
  for (const k of Object.keys(job.with ?? {}))
    assert.ok(Object.hasOwn(inputs, k), `${where}: ${file} has no input "${k}"`);
  assert.ok(!job.with['tailgate-ref'] && !job.with['tailgate-repository'], `${where}: the uses: line is the one pin`);
  const need = grantsNeeded(called);
  assert.deepEqual(
    Object.fromEntries(Object.entries(job.permissions ?? {}).filter(([, v]) => v === 'write')),
    Object.fromEntries(Object.entries(need).filter(([, v]) => v === 'write')),
    `${where}: the calling job grants exactly the writes ${file}'s jobs ask for`,
  );
}

test('reusable dispatch and nightly: typed inputs, tailgate at its own commit, every run: a script of its checkout fed through env', () => {
  for (const [file, own] of Object.entries(REUSABLE)) {
    const { doc } = wf[file];
    assert.deepEqual(Object.keys(doc.on), ['workflow_call'], `${file}: called only`);
    const inputs = doc.on.workflow_call.inputs;
    for (const [name, input] of Object.entries(inputs)) {
      assert.ok(TYPES.has(input.type), `${file}: input ${name} is typed (string, number, boolean)`);
      assert.ok(input.description, `${file}: input ${name} says what it is`);
      if (input.type === 'number') assert.equal(typeof input.default, 'number', `${file}: ${name}'s default`);
    }
    for (const name of ['config', 'matrix', 'tailgate-repository', 'tailgate-ref', 'runs-on'])
      assert.ok(inputs[name], `${file}: input ${name}`);
    for (const [name, job] of Object.entries(doc.jobs)) {
      assertOwnSource(job, `${file}:${name}`);
      assert.ok(job.permissions, `${file}:${name}: its own permissions`);
      assert.match(String(job['runs-on']), /inputs\.runs-on/, `${file}:${name}: on the caller's runner`);
      for (const s of job.steps) {
        if (String(s.uses).startsWith('./'))
          assert.equal(s.uses, './.tailgate', `${file}:${name}: only the composite action`);
        if (!s.run) continue;
        const m = /^\.tailgate\/tools\/ci\/([\w-]+\.sh)$/.exec(s.run.trim());
        assert.ok(m, `${file}:${name}: run: "${s.run}" is one script of tailgate's checkout, nothing else`);
        assert.ok(existsSync(join(ROOT, 'tools', 'ci', m[1])), `${file}: ${m[1]} exists`);
      }
    }
    // The checked values, never the raw inputs, reach the run (check-dispatch.sh's outputs).
    const run = doc.jobs.bench.steps.find((s) => /run-matrix\.sh/.test(s.run ?? ''));
    assert.equal(run.env.MATRIX, '${{ steps.check.outputs.matrix }}', `${file}: the checked matrix`);
    const check = doc.jobs.bench.steps.findIndex((s) => s.id === 'check');
    assert.ok(check > 0 && check < doc.jobs.bench.steps.indexOf(run), `${file}: inputs checked before the run`);
    // Another branch's bench.yaml is refused on a self-hosted runner unless the caller opts
    // in: the bench job's branch step, after the source check and before anything is set up.
    const guard = doc.jobs.bench.steps.findIndex((s) => s.run === '.tailgate/tools/ci/branch-guard.sh');
    const setup = doc.jobs.bench.steps.findIndex((s) => s.with?.command === 'setup');
    assert.ok(guard > 0 && guard < setup, `${file}: the branch guard runs before setup`);
    assert.deepEqual(doc.jobs.bench.steps[guard].env, {
      EVENT_NAME: '${{ github.event_name }}',
      REF: '${{ github.ref }}',
      DEFAULT_BRANCH: '${{ github.event.repository.default_branch }}',
      ALLOW_OTHER_BRANCHES: '${{ inputs.allow-other-branches }}',
    });
    assert.equal(inputs['allow-other-branches'].default, false, `${file}: guarded by default`);
    // tailgate's own workflow is a thin caller: one job, tailgate from this very commit.
    const caller = wf[own].doc;
    const [[jobName, job], ...more] = Object.entries(caller.jobs);
    assert.equal(more.length, 0, `${own}: one job`);
    assert.equal(job.uses, `./.github/workflows/${file}`, `${own}: calls ${file}`);
    assertCallsReusable(job, file, `${own}:${jobName}`);
  }
  // The nightly's bench job waits for its environment; history only from the default branch.
  assert.equal(wf['nightly.yml'].doc.jobs.bench.environment, '${{ inputs.environment }}');
  assert.equal(wf['dispatch.yml'].doc.jobs.baselines.if, 'inputs.update-baselines');
});

test('workflows: the commenter never checks out or runs PR code and gets the PR from the head SHA', () => {
  const { doc, text } = wf['comment.yml'];
  assert.deepEqual(Object.keys(doc.on), ['workflow_call']);
  const checkouts = steps(doc).filter((s) => String(s.uses).startsWith('actions/checkout'));
  assert.deepEqual(
    checkouts.map((c) => [c.with.repository, c.with.ref, c.with.path]),
    [[OWN_SOURCE.repository, OWN_SOURCE.ref, '.tailgate']],
    "only tailgate itself, at the workflow's own commit",
  );
  // tailgate's own commenter takes tailgate from the default branch, never the PR's: a
  // workflow_run runs the default branch's workflow files, comment.yml's own commit.
  const own = wf['bench-comment.yml'].doc;
  assert.deepEqual(Object.keys(own.on), ['workflow_run']);
  assert.equal(own.jobs.comment.with, undefined);
  // The head branch names the fork PR for an API lookup only (env of the script step):
  // never a ref to check out or text in a command.
  const script = steps(doc).find((s) => String(s.uses).startsWith('actions/github-script'));
  const elsewhere = text.replace(`HEAD_BRANCH: \${{ github.event.workflow_run.head_branch }}`, '');
  assert.ok(!/head_branch|head\.ref|pull_request\.number/.test(elsewhere));
  assert.equal(script.env.HEAD_BRANCH, '${{ github.event.workflow_run.head_branch }}');
  assert.match(script.with.script, /publishFromWorkflowRun/);
  assert.ok(script.with.script.split('\n').filter(Boolean).length <= 3, 'no logic inline');
  assert.equal(script.env.HEAD_SHA, '${{ github.event.workflow_run.head_sha }}');
});

test('workflows: no pipe can mask a failing exit code in run steps', () => {
  for (const [f, { doc }] of Object.entries(wf))
    for (const s of steps(doc)) assert.ok(!/\|\s*tee\b/.test(s.run ?? ''), `${f}: "| tee" masks exit codes`);
});

const actionlint = which('actionlint');
// examples/adopter: the complete minimal caller repository the README shows.
const ADOPTER = join(ROOT, 'examples', 'adopter', '.github');
// examples/migration: a migration verdict on a hosted runner (tailgate's action, command migrate).
const MIGRATION = join(ROOT, 'examples', 'migration', '.github');
const ADOPTER_FILES = [ADOPTER, MIGRATION].flatMap((d) =>
  readdirSync(join(d, 'workflows')).map((f) => join(d, 'workflows', f)),
);
const zizmor = which('zizmor');

test('actionlint: clean on our workflows, flags the bad fixture', () => {
  assert.ok(actionlint, 'actionlint not found: make setup installs it into .tools/bin');
  const ours = spawnSync(actionlint, ['-no-color', ...files.map((f) => join(DIR, f)), ...ADOPTER_FILES], {
    encoding: 'utf8',
    cwd: ROOT,
  });
  assert.equal(ours.status, 0, ours.stdout + ours.stderr);
  const bad = spawnSync(actionlint, ['-no-color', BAD], { encoding: 'utf8', cwd: ROOT });
  assert.notEqual(bad.status, 0);
  assert.match(bad.stdout, /github\.event\.pull_request\.title.*potentially untrusted/);
});

test('zizmor: clean on our workflows, flags the bad fixture', () => {
  assert.ok(zizmor, 'zizmor not found: make setup installs it into .tools/bin');
  const ours = spawnSync(zizmor, ['--offline', '--no-progress', '--min-severity', 'low', DIR], {
    encoding: 'utf8',
    cwd: ROOT,
  });
  assert.equal(ours.status, 0, ours.stdout + ours.stderr);
  const action = spawnSync(zizmor, ['--offline', '--no-progress', '--min-severity', 'low', join(ROOT, 'action.yml')], {
    encoding: 'utf8',
  });
  assert.equal(action.status, 0, action.stdout + action.stderr);
  // The example repositories, each with its own zizmor.yml (tailgate's release tag).
  for (const dir of [ADOPTER, MIGRATION]) {
    const r = spawnSync(
      zizmor,
      [
        '--offline',
        '--no-progress',
        '--min-severity',
        'low',
        '--config',
        join(dir, 'zizmor.yml'),
        join(dir, 'workflows'),
      ],
      { encoding: 'utf8' },
    );
    assert.equal(r.status, 0, `${dir}: ${r.stdout}${r.stderr}`);
  }
  // The auditor persona also reports write-all permissions.
  const bad = spawnSync(zizmor, ['--offline', '--no-progress', '--persona', 'auditor', BAD], {
    encoding: 'utf8',
    cwd: ROOT,
  });
  assert.notEqual(bad.status, 0);
  const out = bad.stdout + bad.stderr;
  for (const rule of ['template-injection', 'unpinned-uses', 'excessive-permissions', 'dangerous-triggers'])
    assert.match(out, new RegExp(rule), `zizmor flags ${rule}`);
});
