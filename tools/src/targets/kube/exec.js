// Runs plan steps: a timeout per step, bounded retry of cluster creation only, and an
// error that shows the pasteable command, its output and what the exit code means.
import { commandLine } from '../../exec/command.js';
import { failure, run, tail } from '../../exec/run.js';

// Between cluster-creation attempts: what a failed one left (docker's port proxies, a
// node container) gets a moment to go.
const RETRY_PAUSE_MS = 2000;

export async function runStep(step, { signal, log = () => {} } = {}) {
  const attempts = 1 + (step.kind === 'create' ? (step.retries ?? 0) : 0);
  const deadline = Date.now() + (step.timeoutMs ?? 0);
  let last;
  for (let i = 1; i <= attempts; i++) {
    log(`${step.title}${attempts > 1 ? ` (attempt ${i}/${attempts})` : ''} …`);
    last = await run(step.argv, { timeoutMs: step.timeoutMs, env: step.env, signal });
    // A wait on objects a controller has yet to make (`kubectl wait -l` fails at once
    // while nothing matches): asked again until the step's time is up.
    while (
      last.code !== 0 &&
      step.retryWhileOutput?.test(last.output) &&
      !signal?.aborted &&
      Date.now() + 2000 < deadline
    ) {
      await new Promise((r) => setTimeout(r, 2000));
      last = await run(step.argv, { timeoutMs: Math.max(1000, deadline - Date.now()), env: step.env, signal });
    }
    if (last.code === 0 || (step.okIfOutput && step.okIfOutput.test(last.output))) return last;
    if (signal?.aborted) break;
    if (i < attempts && step.beforeRetry) {
      await run(step.beforeRetry, { timeoutMs: 120_000, signal });
      await new Promise((r) => setTimeout(r, RETRY_PAUSE_MS * i));
    }
  }
  // Pods that never became Ready say why in their events (hostPort taken,
  // SysctlForbidden, image missing) or their own last log lines (a proxy that refuses
  // its configuration): read them before the error is raised.
  const whys = [];
  if (!signal?.aborted)
    for (const argv of diagnoseCommands(step)) whys.push({ argv, ...(await run(argv, { timeoutMs: 20_000 })) });
  throw stepError(step, last, whys);
}

function diagnoseCommands(step) {
  if (!step.diagnose) return [];
  return Array.isArray(step.diagnose[0]) ? step.diagnose : [step.diagnose];
}

// The command's own failure (exit-code meaning, pasteable command, output tail), then
// what each diagnose command said.
function stepError(step, result, whys = []) {
  const why = step.kind === 'create' ? createCause(result.output) : null;
  const err = failure(`step failed: ${step.title}${why ? ` — ${why}` : ''}`, result, { env: step.env });
  for (const w of whys.filter((x) => x.output.trim()))
    err.details.push(`why (${commandLine(w.argv)}):`, ...tail(w.output, 10));
  return err;
}

// kind and its offline wrapper end a failed create with one line that says why ("ERROR:
// failed to create cluster: …", "[offline-kind …] ERROR: …"): that line leads the
// message, which is what a PR comment shows of an infrastructure error.
export function createCause(output) {
  const lines = (output ?? '').split('\n');
  const at = lines.findLastIndex((l) => /\bERROR: /.test(l));
  if (at < 0) return null;
  // kind follows its ERROR line with the failed docker command's own words.
  const next = lines[at + 1]?.startsWith('Command Output: ') ? ` (${lines[at + 1].slice(16)})` : '';
  const line = lines[at].slice(lines[at].indexOf('ERROR: ') + 7) + next;
  // Printable ASCII only, bounded: it goes into a comment's line.
  return (
    line
      .replace(/[^\x20-\x7e]/g, '')
      .trim()
      .slice(0, 300) || null
  );
}
