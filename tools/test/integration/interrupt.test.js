// Ctrl-C in the middle of a run: exit 130, partial results kept, and not one
// process of the run left behind (pods, proxy, k6).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { spawnSync } from 'node:child_process';
import { processesMentioning } from '../helpers/procs.js';
import { scratchDir } from '../helpers/scratch.js';

const ROOT_USER = process.getuid() === 0;
const namespaces = () =>
  (spawnSync('ip', ['netns', 'list'], { encoding: 'utf8' }).stdout ?? '')
    .split('\n')
    .filter((l) => l.startsWith('tgl'));

const CLI = new URL('../../bin/tailgate.js', import.meta.url).pathname;

function churnBench(work) {
  writeFileSync(
    join(work, 'bench.yaml'),
    `apiVersion: tailgate/v1
kind: Bench
controllers:
  haproxy-reload: { type: local, variant: haproxy-reload }
scenarios:
  churn: { script: steady, rate: 200, duration: 30s, replicas: 3, faults: [{ type: churn, between: [3, 1], every: 1s }] }
matrices:
  # p99 advisory: the sweep case's second run is 1 s (200 samples; gating p99 needs 1000).
  local: { target: local, controllers: [haproxy-reload], scenarios: [churn], gate: { latency: { p99: { blocking: false } } }${ROOT_USER ? ', isolation: netns' : ''} }
`,
  );
}

// Starts `tailgate run` in work/ and resolves once the load engine runs and the churn has started.
async function runningCell(work, env) {
  const child = spawn(process.execPath, [CLI, 'run', '--config', 'bench.yaml', '--out', 'results'], {
    cwd: work,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const run = { child, output: '' };
  child.stdout.on('data', (d) => (run.output += d));
  child.stderr.on('data', (d) => (run.output += d));
  run.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const runs = existsSync(join(work, 'results')) ? readdirSync(join(work, 'results')) : [];
    run.events =
      runs.length && join(work, 'results', runs[0], 'haproxy-reload', 'default', 'churn', 'rep-1', 'events.jsonl');
    if (
      run.events &&
      existsSync(run.events) &&
      processesMentioning(join(work, 'results')).some((p) => /k6 run|vegeta attack/.test(p))
    )
      break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await new Promise((r) => setTimeout(r, 1500));
  assert.ok(processesMentioning(work).length >= 4, 'pods, proxy and the load engine were running');
  if (ROOT_USER) assert.ok(namespaces().length >= 4, 'proxy and pod namespaces existed');
  return run;
}

// As root the run also uses network namespaces: those must go too.
test(
  `run: SIGINT during load stops everything${ROOT_USER ? ', removes every namespace' : ''} and exits 130`,
  { timeout: 60_000 },
  async () => {
    const work = scratchDir('tg-int-');
    churnBench(work);
    const run = await runningCell(work, { TAILGATE_STATE_DIR: scratchDir('tg-state-') });
    run.child.kill('SIGINT');
    const code = await run.exited;
    assert.equal(code, 130, run.output);
    assert.match(run.output, /interrupted/);
    assert.deepEqual(processesMentioning(work), [], 'no process of the run left');
    assert.deepEqual(namespaces(), [], 'no namespace of the run left');
    assert.ok(existsSync(run.events), 'partial results kept');
  },
);

// Killed outright (kill -9, the OOM killer): no code of the run gets to clean up. Its
// pods and proxy outlive it — until the next start, which removes them and says so.
test(
  `run: after SIGKILL during load, the next start removes every process${ROOT_USER ? ' and namespace' : ''} of the dead run`,
  { timeout: 90_000 },
  async () => {
    const work = scratchDir('tg-kill-');
    const env = { TAILGATE_STATE_DIR: scratchDir('tg-state-') };
    churnBench(work);
    const dead = await runningCell(work, env);
    dead.child.kill('SIGKILL');
    assert.equal(await dead.exited, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 500));
    assert.ok(processesMentioning(work).length >= 3, 'without a sweep, pods and proxy outlive the run');
    const next = spawnSync(
      process.execPath,
      [CLI, 'run', '--config', 'bench.yaml', '--out', 'again', '--duration', '1s'],
      {
        cwd: work,
        env: { ...process.env, ...env },
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    const output = next.stdout + next.stderr;
    assert.match(output, /removed what a killed run left behind \(pid \d+\): \d+ processes/, output);
    assert.deepEqual(processesMentioning(join(work, 'results')), [], 'no process of the dead run left');
    assert.deepEqual(processesMentioning(work), [], 'nor of the next run');
    assert.deepEqual(namespaces(), [], 'no namespace left');
  },
);
