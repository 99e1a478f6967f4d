// Runs one k6 scenario script (plan.js builds its command), raw output gzipped next to
// k6's own summary; several runners as execution segments of one scenario.
import { commandLine } from '../../exec/command.js';
import { startProcess } from '../../exec/start.js';
import { toolEnv, which } from '../../exec/tools.js';
import { InfraError } from '../../errors.js';
import { loadBudget, pinned } from '../load.js';
import { k6Args, k6Env, k6Files } from './plan.js';

/** Resolves {exitCode, startedAt}. Kills k6 (and reports infra error) past the budget. */
export async function runK6(scenario, { cellDir, url, urlB, host, signal, segment = null }) {
  const k6 = which('k6');
  if (!k6) throw new InfraError('k6 not found: run `make setup` (installs the pinned k6 into .tools/bin)');
  const files = k6Files(cellDir, segment);
  const env = toolEnv({ ...k6Env(scenario, { url, urlB, host, summary: files.summary }), K6_NO_USAGE_REPORT: 'true' });
  const args = k6Args(scenario, cellDir, segment);
  const startedAt = Date.now();
  // On bare metal, k6 on its own cores (TAILGATE_LOAD_CPUS=2-3: engines/load.js).
  const argv = pinned([k6, ...args]);
  const budget = loadBudget(scenario);
  const child = await startProcess(argv, { env, cwd: cellDir, logFile: files.log, name: 'k6' });
  const onAbort = () => child.kill('SIGINT');
  signal?.addEventListener('abort', onAbort, { once: true });
  let timer;
  const overdue = new Promise((_, reject) => {
    timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new InfraError(`k6 did not finish within ${budget / 1000}s; see ${files.log}`, {
          details: [`command: ${commandLine(argv)}`],
        }),
      );
    }, budget);
  });
  try {
    const { code, signal: sig } = await Promise.race([child.exited, overdue]);
    return { exitCode: code ?? 128, signal: sig, startedAt, endedAt: Date.now(), command: commandLine(argv), ...files };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

// runners > 1 on this machine: that many k6 processes, each an execution segment of
// the scenario, started together; the cell's outcome names every runner (ingest/runners.js merges them).
export async function runK6Segments(scenario, opts) {
  const n = scenario.runners ?? 1;
  if (n < 2) return runK6(scenario, opts);
  const runs = await Promise.all(
    Array.from({ length: n }, (_, index) => runK6(scenario, { ...opts, segment: { index, count: n } })),
  );
  const bad = runs.find((r) => r.exitCode !== 0 && r.exitCode !== 99);
  return {
    exitCode: bad?.exitCode ?? runs[0].exitCode,
    startedAt: Math.min(...runs.map((r) => r.startedAt)),
    runners: runs,
  };
}
