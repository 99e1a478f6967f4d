// Ctrl-C in the middle of a run: exit 130, partial results kept, and not one
// process of the run left behind (pods, proxy, k6).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { spawnSync } from 'node:child_process';
import { processesMentioning } from '../helpers/procs.js';

const ROOT_USER = process.getuid() === 0;
const namespaces = () =>
  (spawnSync('ip', ['netns', 'list'], { encoding: 'utf8' }).stdout ?? '')
    .split('\n')
    .filter((l) => l.startsWith('tgl'));

const CLI = new URL('../../bin/tailgate.js', import.meta.url).pathname;

// As root the run also uses network namespaces: those must go too.
test(
  `run: SIGINT during load stops everything${ROOT_USER ? ', removes every namespace' : ''} and exits 130`,
  { timeout: 60_000 },
  async () => {
    const work = mkdtempSync(join(tmpdir(), 'tg-int-'));
    writeFileSync(
      join(work, 'bench.yaml'),
      `apiVersion: tailgate/v1
kind: Bench
controllers:
  haproxy-reload: { type: local, variant: haproxy-reload }
scenarios:
  churn: { script: steady, rate: 200, duration: 30s, replicas: 3, faults: [{ type: churn, between: [3, 1], every: 1s }] }
matrices:
  local: { target: local, controllers: [haproxy-reload], scenarios: [churn]${ROOT_USER ? ', isolation: netns' : ''} }
`,
    );
    const child = spawn(process.execPath, [CLI, 'run', '--config', 'bench.yaml', '--out', 'results'], {
      cwd: work,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    // Wait until k6 is running and the churn has started.
    const deadline = Date.now() + 20_000;
    let events;
    while (Date.now() < deadline) {
      const runs = existsSync(join(work, 'results')) ? readdirSync(join(work, 'results')) : [];
      events =
        runs.length && join(work, 'results', runs[0], 'haproxy-reload', 'default', 'churn', 'rep-1', 'events.jsonl');
      if (events && existsSync(events) && processesMentioning(join(work, 'results')).some((p) => /k6 run/.test(p)))
        break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, 1500));
    assert.ok(processesMentioning(work).length >= 4, 'pods, proxy and k6 were running');
    if (ROOT_USER) assert.ok(namespaces().length >= 4, 'proxy and pod namespaces existed');
    child.kill('SIGINT');
    const code = await exited;
    assert.equal(code, 130, output);
    assert.match(output, /interrupted/);
    assert.deepEqual(processesMentioning(work), [], 'no process of the run left');
    assert.deepEqual(namespaces(), [], 'no namespace of the run left');
    assert.ok(existsSync(events), 'partial results kept');
  },
);
