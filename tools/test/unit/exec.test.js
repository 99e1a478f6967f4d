// The one command runner (tools/src/exec/): every spawn in tailgate goes through it,
// so its promises are the ones every error message and timeout relies on.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { check, failure, run, runSync, runToFile } from '../../src/exec/run.js';
import { startProcess } from '../../src/exec/start.js';
import { scratchDir } from '../helpers/scratch.js';

const SRC = new URL('../../src/', import.meta.url).pathname;

test('exec: a missing tool is exit 127 with its meaning, never an exception', async () => {
  const r = runSync(['tailgate-no-such-tool', 'x']);
  assert.equal(r.code, 127);
  assert.equal((await run(['tailgate-no-such-tool'])).code, 127);
  assert.throws(
    () => check(r, 'probe'),
    (e) =>
      e.exitCode === 4 &&
      /not found on PATH or in .tools\/bin/.test(e.message) &&
      e.details[0] === 'command: tailgate-no-such-tool x',
  );
});

test('exec: timeouts are exit 124 (sync and async), and the error says so with a pasteable command and the fix', async () => {
  assert.equal(runSync(['sleep', '5'], { timeoutMs: 100 }).code, 124);
  const r = await run(['sh', '-c', "echo 'it is slow'; sleep 5"], { timeoutMs: 200 });
  assert.equal(r.code, 124);
  const e = failure('slow step', r, { hint: 'raise the timeout' });
  assert.match(e.message, /slow step \(it timed out\)/);
  assert.deepEqual(e.details, [
    "command: sh -c 'echo '\\''it is slow'\\''; sleep 5'",
    '| it is slow',
    'fix: raise the timeout',
  ]);
});

test('exec: runToFile streams stdout byte for byte and the file is complete when it resolves', async () => {
  const dir = scratchDir('tg-exec-');
  const file = join(dir, 'out.bin');
  // 3 MiB of 0xff (not text), far more than one pipe buffer.
  const r = await runToFile(['sh', '-c', 'head -c 3145728 /dev/zero | tr "\\0" "\\377"; echo oops >&2'], file);
  assert.equal(r.code, 0);
  assert.equal(statSync(file).size, 3145728);
  assert.ok(readFileSync(file).every((b) => b === 0xff));
  assert.match(r.output, /oops/);
  assert.equal((await runToFile(['sh', '-c', 'echo gone >&2; exit 3'], join(dir, 'x'))).code, 3);
});

test('exec: startProcess resolves once spawned, logs to the file, and exited carries the code', async () => {
  const dir = scratchDir('tg-exec-');
  const child = await startProcess(['sh', '-c', 'echo hello; exit 7'], { logFile: join(dir, 'log') });
  assert.deepEqual(await child.exited, { code: 7, signal: null });
  assert.equal(readFileSync(join(dir, 'log'), 'utf8'), 'hello\n');
  await assert.rejects(startProcess(['tailgate-no-such-tool']), /not found/);
});

test('exec: no module outside tools/src/exec spawns a process itself', () => {
  const offenders = [];
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (
        p.endsWith('.js') &&
        !p.startsWith(join(SRC, 'exec')) &&
        /node:child_process/.test(readFileSync(p, 'utf8'))
      )
        offenders.push(p.slice(SRC.length));
    }
  };
  walk(SRC);
  assert.deepEqual(offenders, []);
});

test('TAILGATE_LOAD_CPUS (or the old TAILGATE_K6_CPUS): a CPU list the machine lacks is refused before any load, naming the CPUs it has (bench-metal assumed 2-3)', async () => {
  const { loadCpus } = await import('../../src/engines/load.js');
  assert.equal(loadCpus({}, 2), null);
  assert.equal(loadCpus({ TAILGATE_LOAD_CPUS: '0-1' }, 2), '0-1');
  assert.equal(loadCpus({ TAILGATE_K6_CPUS: '0-1' }, 2), '0-1');
  assert.equal(loadCpus({ TAILGATE_LOAD_CPUS: '1', TAILGATE_K6_CPUS: '0' }, 2), '1', 'the new name wins');
  assert.throws(() => loadCpus({ TAILGATE_K6_CPUS: '2-3' }, 2), /TAILGATE_K6_CPUS=2-3: this machine has CPUs 0-1/);
  assert.throws(() => loadCpus({ TAILGATE_LOAD_CPUS: '2-3' }, 2), /TAILGATE_LOAD_CPUS=2-3: this machine has CPUs 0-1/);
  assert.throws(() => loadCpus({ TAILGATE_LOAD_CPUS: '1;true' }, 8), /expected a CPU list/);
});
