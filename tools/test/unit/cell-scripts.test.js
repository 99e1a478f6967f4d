// The PR cell scripts are glue now (tools/ci/duet-cell.sh, paired-cell.sh): tailgate
// decides duet or interleaved and the pair order (plan/pairing.js). Their orchestration
// is checked here with bench-cell.sh stood in for (it would run a benchmark): which side
// runs when, under which pair number, in which folder, and what the log says.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  cpSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  symlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { pairOrder } from '../../src/plan/pairing.js';
import { scratchDir } from '../helpers/scratch.js';

const ROOT = new URL('../../../', import.meta.url).pathname;

const FAKE_CELL = (who) =>
  `#!/usr/bin/env bash\necho "${who} pair=\${TAILGATE_PAIR:-none} out=\${OUT#$CELL_ROOT/}" >> "$CELL_LOG"\n`;

// A tailgate folder whose tools/ci holds the real scripts and a stand-in bench-cell.sh;
// everything else links to this checkout.
function tailgateCopy(root) {
  const tg = join(root, 'tg');
  mkdirSync(join(tg, 'tools', 'ci'), { recursive: true });
  // bench.yaml and the files it names are copies: a config's files must not be links out of its folder.
  for (const e of readdirSync(ROOT))
    if (['bench.yaml', 'charts'].includes(e)) cpSync(join(ROOT, e), join(tg, e), { recursive: true });
    else if (!['tools', '.git', 'results'].includes(e)) symlinkSync(join(ROOT, e), join(tg, e));
  for (const e of readdirSync(join(ROOT, 'tools')))
    if (e !== 'ci') symlinkSync(join(ROOT, 'tools', e), join(tg, 'tools', e));
  for (const f of readdirSync(join(ROOT, 'tools', 'ci')))
    copyFileSync(join(ROOT, 'tools', 'ci', f), join(tg, 'tools', 'ci', f));
  writeFileSync(join(tg, 'tools', 'ci', 'bench-cell.sh'), FAKE_CELL('head'));
  chmodSync(join(tg, 'tools', 'ci', 'bench-cell.sh'), 0o755);
  return tg;
}

function baseCheckout(root, { config = true, tailgate = true } = {}) {
  const base = join(root, 'base');
  mkdirSync(join(base, 'tools', 'ci'), { recursive: true });
  mkdirSync(join(base, 'tools', 'scripts'), { recursive: true });
  if (config) {
    copyFileSync(join(ROOT, 'bench.yaml'), join(base, 'bench.yaml'));
    cpSync(join(ROOT, 'charts'), join(base, 'charts'), { recursive: true });
  }
  if (tailgate) {
    writeFileSync(join(base, 'tools', 'ci', 'bench-cell.sh'), FAKE_CELL('base'));
    chmodSync(join(base, 'tools', 'ci', 'bench-cell.sh'), 0o755);
    writeFileSync(join(base, 'tools', 'scripts', 'setup.sh'), '#!/usr/bin/env bash\n');
    chmodSync(join(base, 'tools', 'scripts', 'setup.sh'), 0o755);
  }
  return base;
}

function runScript(script, env, opts) {
  const root = scratchDir('tg-cells-');
  const tg = tailgateCopy(root);
  const base = baseCheckout(root, opts);
  const log = join(root, 'cells.log');
  writeFileSync(log, '');
  const summary = join(root, 'summary.md');
  const r = spawnSync(join(tg, 'tools', 'ci', script), [], {
    cwd: tg,
    encoding: 'utf8',
    env: {
      ...process.env,
      BASE_DIR: base,
      OUT: join(root, 'results'),
      CELL_LOG: log,
      CELL_ROOT: root,
      GITHUB_STEP_SUMMARY: summary,
      MATRIX: 'pr',
      CONTROLLER: 'ingress-nginx',
      TUNING: 'default',
      SCENARIO: 'steady',
      ...env,
    },
  });
  const out = {
    code: r.status,
    out: r.stdout + r.stderr,
    runs: readFileSync(log, 'utf8').trim().split('\n').filter(Boolean),
    summary: readFileSync(summary, { encoding: 'utf8', flag: 'a+' }),
  };
  rmSync(root, { recursive: true, force: true });
  return out;
}

test('cell scripts: interleaved pairs A B, B A, A B — numbered from FIRST_PAIR, base with its own bench-cell', () => {
  const r = runScript('paired-cell.sh', { REPETITIONS: '3' });
  assert.equal(r.code, 0, r.out);
  assert.deepEqual(r.runs, [
    'base pair=1 out=results/base',
    'head pair=1 out=results/head',
    'head pair=2 out=results/head',
    'base pair=2 out=results/base',
    'base pair=3 out=results/base',
    'head pair=3 out=results/head',
  ]);
  const round = runScript('paired-cell.sh', { REPETITIONS: '2', FIRST_PAIR: '4' });
  assert.deepEqual(
    round.runs.map((l) => l.split(' out=')[0]),
    ['base pair=4', 'head pair=4', 'head pair=5', 'base pair=5'],
  );
  assert.deepEqual(
    pairOrder(2, 4).map((x) => `${x.side} ${x.pair}`),
    ['base 4', 'head 4', 'head 5', 'base 5'],
  );
});

test('cell scripts: a base without a bench config — the head runs alone, and the log and summary say so once', () => {
  const r = runScript('duet-cell.sh', { REPETITIONS: '2' }, { config: false });
  assert.equal(r.code, 0, r.out);
  assert.deepEqual(r.runs, ['head pair=none out=results/head']);
  assert.equal((r.out.match(/::notice::/g) ?? []).length, 1, r.out);
  assert.match(r.summary, /the base commit has no bench\.yaml — the head runs alone/);
});

test('cell scripts: a duet the plan refuses runs interleaved and says why', () => {
  // envoy-gateway has no duet section in its catalog entry.
  const r = runScript('duet-cell.sh', { REPETITIONS: '1', MATRIX: 'migration', CONTROLLER: 'envoy-gateway' });
  assert.equal(r.code, 0, r.out);
  assert.deepEqual(r.runs, ['base pair=1 out=results/base', 'head pair=1 out=results/head']);
  assert.match(r.out, /::notice::tailgate: controller "envoy-gateway" cannot run two releases in one cluster yet/);
  // A base that is tailgate with other code: interleaved, each side with its own code.
  const own = spawnSync(
    process.execPath,
    [
      join(ROOT, 'tools/bin/tailgate.js'),
      'plan',
      '--matrix',
      'local',
      '--pairing',
      '--base-dir',
      baseCheckout(scratchDir('tg-own-')),
    ],
    { encoding: 'utf8', cwd: ROOT },
  );
  assert.match(own.stdout, /^interleaved: /);
});
