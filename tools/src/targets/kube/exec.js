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

// kind ends a failed create with "ERROR: failed to create cluster: …" and, when docker
// refused, the docker command (hundreds of characters) and docker's own words under
// "Command Output:". The offline wrapper then adds "[offline-kind …] ERROR: command
// failed … at kind:70", which says nothing: kind's line, with docker's reason in place of
// its command, leads the message, which is what a PR comment shows of an infra error.
export function createCause(output) {
  const lines = (output ?? '').split('\n');
  const kindAt = lines.findLastIndex((l) => /^ERROR: /.test(l));
  const wrapperAt = lines.findLastIndex(
    (l) => /\bERROR: /.test(l) && !/\bERROR: command failed \(exit \d+\) at /.test(l),
  );
  const at = kindAt >= 0 ? kindAt : wrapperAt;
  if (at < 0) return null;
  let line = lines[at].slice(lines[at].indexOf('ERROR: ') + 7);
  if (at === kindAt) {
    // docker's reason first, then the docker command by its container's name only.
    const said = dockerSaid(lines.slice(at + 1));
    line = line.replace(/command "docker (\w+)( [^"]*)" failed with error: (.*)/, (_, verb, rest, err) => {
      const name = / --name (\S+)/.exec(rest)?.[1] ?? rest.split(' ').find((w) => w && !w.startsWith('-'));
      const cmd = `docker ${verb}${name ? ` ${name}` : ''}`;
      return said ? `${said} (${cmd}, ${err})` : `${cmd} failed (${err})`;
    });
  }
  // Printable ASCII only, bounded: it goes into a comment's line.
  return (
    line
      .replace(/[^\x20-\x7e]/g, '')
      .trim()
      .slice(0, 300) || null
  );
}

// The line of kind's "Command Output:" block that says why (docker's error, not its
// warnings or the container id it printed first).
function dockerSaid(after) {
  const block = [];
  for (const l of after) {
    if (/^\[offline-kind /.test(l) || /^ERROR: /.test(l)) break;
    block.push(l.replace(/^Command Output: /, ''));
  }
  const why = block.filter((l) => /error|denied|no space|not found|failed/i.test(l) && !/^WARNING/.test(l)).at(-1);
  // Docker's wrapping ("Error response from daemon: driver failed … on endpoint <id>:")
  // says nothing a reader needs: its last three parts do.
  return (
    why
      ?.replace(/^docker: /, '')
      .replace(/ \(?[0-9a-f]{32,}\)?/g, '')
      .replace(/\.$/, '')
      .split(': ')
      .slice(-3)
      .join(': ')
      .trim() ?? null
  );
}
