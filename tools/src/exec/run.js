// The one way tailgate runs an external command to completion: the tool looked up
// where `make setup` puts it, a timeout on every call, a bounded output tail, and
// results that never throw — the caller decides, and `check` turns a failure into
// an error that says what the exit code means and shows the pasteable command.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { InfraError } from '../errors.js';
import { commandLine } from './command.js';
import { toolEnv, which } from './tools.js';

const DEFAULT_TIMEOUT_MS = 120_000;
const KEEP = 100_000; // characters of output kept for an error message

export const MEANING = {
  124: 'it timed out',
  126: 'the command is not executable',
  127: 'the command was not found on PATH or in .tools/bin',
  137: 'killed (SIGKILL; out of memory?)',
};

function resolveTool(argv) {
  const bin = which(argv[0]);
  return bin ? [bin, argv.slice(1)] : null;
}

function notFound(argv) {
  return {
    argv,
    code: 127,
    stdout: '',
    stderr: `${argv[0]}: not found on PATH or in .tools/bin`,
    output: `${argv[0]}: not found on PATH or in .tools/bin`,
  };
}

/** Runs argv and waits: {argv, code, stdout, stderr, output}. code 124 = timed out. */
export function runSync(argv, { cwd, env, timeoutMs = DEFAULT_TIMEOUT_MS, maxBuffer = 16 << 20, input } = {}) {
  const tool = resolveTool(argv);
  if (!tool) return notFound(argv);
  const r = spawnSync(tool[0], tool[1], {
    cwd,
    env: toolEnv(env),
    encoding: 'utf8',
    timeout: timeoutMs,
    maxBuffer,
    input,
  });
  const stdout = r.stdout ?? '';
  const stderr = `${r.stderr ?? ''}${r.error && r.error.code !== 'ETIMEDOUT' ? r.error.message : ''}`;
  const code = r.error?.code === 'ETIMEDOUT' ? 124 : r.error ? 126 : (r.status ?? 128);
  return { argv, code, stdout, stderr, output: `${stdout}${stderr}` };
}

/** Runs argv with the terminal's streams (an installer that prints its own steps as it
 *  goes); no timeout — an install may take minutes. -> exit code (126: could not start). */
export function runAttached(argv, { cwd } = {}) {
  const tool = resolveTool(argv);
  if (!tool) return 127;
  const r = spawnSync(tool[0], tool[1], { cwd, env: toolEnv(), stdio: ['inherit', 'inherit', 'inherit'] });
  return r.error ? 126 : (r.status ?? 128);
}

// Appends, keeping at most the last KEEP characters once twice that has piled up.
function keepTail(kept, d) {
  const all = kept + d;
  return all.length > 2 * KEEP ? all.slice(-KEEP) : all;
}

/** Runs argv without blocking the event loop; resolves {argv, code, output, stdout}
 *  (output: both streams interleaved, for messages; stdout alone, for values to parse —
 *  kubectl prints client warnings on stderr); never rejects. */
export function run(argv, { cwd, env, timeoutMs = DEFAULT_TIMEOUT_MS, signal } = {}) {
  return new Promise((resolve) => {
    const tool = resolveTool(argv);
    if (!tool) return resolve(notFound(argv));
    const child = spawn(tool[0], tool[1], { cwd, env: toolEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let stdout = '';
    const keep = (d) => (output = keepTail(output, d));
    child.stdout.on('data', (d) => {
      keep(d);
      stdout = keepTail(stdout, d);
    });
    child.stderr.on('data', keep);
    const done = watch(child, { timeoutMs, signal });
    child.on('error', (err) => keep(String(err.message)));
    child.on('close', (code) => resolve({ argv, code: done() ?? code ?? 128, output, stdout }));
  });
}

/** Runs argv with its stdout streamed, byte for byte, into file (binary-safe; the
 *  promise settles only after the file is flushed). Resolves {argv, code, output}
 *  with output = stderr's tail. */
export async function runToFile(argv, file, { env, timeoutMs = DEFAULT_TIMEOUT_MS, signal } = {}) {
  const tool = resolveTool(argv);
  if (!tool) return notFound(argv);
  const child = spawn(tool[0], tool[1], { env: toolEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stderr.on('data', (d) => (output = (output + d).slice(-KEEP)));
  const done = watch(child, { timeoutMs, signal });
  const exited = new Promise((resolve) => {
    child.on('error', (err) => resolve({ code: 126, err }));
    child.on('close', (code) => resolve({ code }));
  });
  const [, exit] = await Promise.all([
    pipeline(child.stdout, createWriteStream(file)).catch((err) => (output += err.message)),
    exited,
  ]);
  return { argv, code: done() ?? exit.code ?? 128, output: `${output}${exit.err?.message ?? ''}` };
}

// Kills the child on timeout or abort; the returned function stops watching and
// says 124 when the child was killed for its time.
function watch(child, { timeoutMs, signal }) {
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, timeoutMs);
  const onAbort = () => child.kill('SIGTERM');
  signal?.addEventListener('abort', onAbort, { once: true });
  return () => {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    return timedOut ? 124 : null;
  };
}

/** The error for a failed result: what failed, what the exit code means, the command
 *  to paste, the output's last lines and, when given, how to fix it. */
export function failure(what, result, { hint, env, lines = 25 } = {}) {
  const meaning = MEANING[result.code] ?? `exit code ${result.code}`;
  return new InfraError(`${what} (${meaning})`, {
    details: [
      `command: ${commandLine(result.argv, env)}`,
      ...tail(result.output, lines),
      ...(hint ? [`fix: ${hint}`] : []),
    ],
  });
}

/** The last `lines` non-blank lines of a command's output, marked as quoted. */
export function tail(output, lines) {
  return (output ?? '')
    .trim()
    .split('\n')
    .filter(Boolean)
    .slice(-lines)
    .map((l) => `| ${l}`);
}

/** result when it succeeded, else throws `failure(what, result, opts)`. */
export function check(result, what, opts = {}) {
  if (result.code === 0) return result;
  throw failure(what, result, opts);
}
