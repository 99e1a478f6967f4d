// Runs steps: a timeout per step, bounded retry of cluster creation only, and an
// error that shows the pasteable command, its output and what the exit code means.
import { spawn } from 'node:child_process';
import { toolEnv, which } from '../../deps.js';
import { InfraError } from '../../errors.js';
import { commandLine } from './shell.js';

const MEANING = {
  124: 'the step timed out',
  126: 'the command is not executable',
  127: 'the command was not found on PATH',
  137: 'killed (SIGKILL; out of memory?)',
};

/** Runs argv; resolves {code, output}. Never throws for a non-zero exit. */
export function runCommand(argv, { timeoutMs, env = {}, signal } = {}) {
  return new Promise((resolve) => {
    const bin = which(argv[0]);
    if (!bin) return resolve({ code: 127, output: `${argv[0]}: not found on PATH` });
    const child = spawn(bin, argv.slice(1), { env: toolEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (d) => {
      output += d;
      if (output.length > 200_000) output = output.slice(-100_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs ?? 120_000);
    const onAbort = () => child.kill('SIGTERM');
    signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (err) => keep(String(err.message)));
    child.on('close', (code) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve({ code: timedOut ? 124 : code ?? 128, output });
    });
  });
}

export async function runStep(step, { signal, log = () => {} } = {}) {
  const attempts = 1 + (step.kind === 'create' ? step.retries ?? 0 : 0);
  let last;
  for (let i = 1; i <= attempts; i++) {
    log(`${step.title}${attempts > 1 ? ` (attempt ${i}/${attempts})` : ''} …`);
    last = await runCommand(step.argv, { timeoutMs: step.timeoutMs, env: step.env, signal });
    if (last.code === 0 || (step.okIfOutput && step.okIfOutput.test(last.output))) return last;
    if (signal?.aborted) break;
  }
  // Pods that never became Ready say why in their events (hostPort taken,
  // SysctlForbidden, image missing): read them before the error is raised.
  const why = step.diagnose && !signal?.aborted ? await runCommand(step.diagnose, { timeoutMs: 20_000 }) : null;
  throw stepError(step, last, why);
}

export function stepError(step, { code, output }, why = null) {
  const meaning = MEANING[code] ?? `exit code ${code}`;
  const diagnosis = why?.output.trim() ? [`why (${commandLine(step.diagnose)}):`, ...why.output.trim().split('\n').slice(-10).map((l) => `| ${l}`)] : [];
  return new InfraError(`step failed: ${step.title} (${meaning})`, {
    details: [`command: ${commandLine(step.argv, step.env)}`, ...output.trim().split('\n').slice(-25).map((l) => `| ${l}`), ...diagnosis],
  });
}
