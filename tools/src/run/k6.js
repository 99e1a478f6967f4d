// Runs one k6 scenario script with the scenario's knobs as environment variables,
// raw output gzipped next to k6's own summary. Shared by every target driver.
import { join } from 'node:path';
import { scenarioMs } from '../config/normalise.js';
import { k6Load } from '../config/duet-load.js';
import { commandLine } from '../exec/command.js';
import { startProcess } from '../exec/start.js';
import { ROOT, toolEnv, which } from '../exec/tools.js';
import { InfraError, InputError } from '../errors.js';
import { availableParallelism } from 'node:os';

export function k6Env(scenario, { url, urlB, host = 'bench.local', summary }) {
  const env = {
    TG_TARGET_URL: url,
    // Concurrent A/B: requests alternate between the two, tagged side=a / side=b.
    ...(urlB ? { TG_TARGET_URL_B: urlB } : {}),
    TG_HOST: host,
    TG_PAYLOAD: scenario.payload,
    TG_DURATION: scenario.duration,
    TG_WARMUP: scenario.warmup,
    TG_VUS: String(scenario.vus),
    TG_MAX_VUS: String(scenario.maxVus),
    TG_TIMEOUT: scenario.timeout,
    TG_SUMMARY: summary,
  };
  if (scenario.rate) env.TG_RATE = String(scenario.rate);
  if (scenario.maxRate) env.TG_MAX_RATE = String(scenario.maxRate);
  if (scenario.rates) env.TG_RATES = scenario.rates.join(',');
  if (scenario.connections) env.TG_CONNECTIONS = scenario.connections.join(',');
  if (scenario.pause) env.TG_PAUSE = scenario.pause;
  return env;
}

/** What k6 runs for a cell: a duet (cell.concurrent) whose sides are loaded at once runs
 *  both sides' rate and VUs in one k6 (config/duet-load.js, the rule validation checks a
 *  profile's maxRate with); sides loaded one at a time (alternate) get the rate each. */
export function cellLoad(cell) {
  return k6Load(cell.scenario, { duet: cell.concurrent, alternate: cell.alternate });
}

/**
 * Which role each of k6's sides plays in a duet: [side a, side b]. The sides swap every
 * other pair (the base is side a in odd repetitions, side b in even ones), so whatever
 * favours one side — first in k6's alternation, its host port, its namespace — lands on
 * base and head alike instead of reading as a change.
 */
export function duetSides(cell) {
  return cell.concurrent && cell.repetition % 2 === 0 ? ['head', 'base'] : ['base', 'head'];
}

/** The URLs k6 gets for a duet's sides a and b, from the base's and the head's. */
export function sideUrls(cell, baseUrl, headUrl) {
  return duetSides(cell)[0] === 'base' ? [baseUrl, headUrl] : [headUrl, baseUrl];
}

/** Wall-clock bound of a k6 run: warm-up + measured time (+ sweep steps) + grace. */
export function k6Budget(scenario) {
  const { warmup, duration } = scenarioMs(scenario);
  const steps = scenario.script === 'sweep' ? scenario.rates.length * scenario.connections.length : 0;
  return warmup + (steps ? (duration + 2000) * steps : duration) + 45_000;
}

// Runner i of n (execution segments): k6 splits one scenario so that the runners
// together deliver exactly the configured rate — the mechanism k6-operator uses.
export function segmentArgs(segment) {
  if (!segment || segment.count < 2) return [];
  const { index: i, count: n } = segment;
  const frac = (k) => (k === 0 ? '0' : k === n ? '1' : `${k}/${n}`);
  const sequence = Array.from({ length: n + 1 }, (_, k) => frac(k)).join(',');
  return ['--execution-segment', `${frac(i)}:${frac(i + 1)}`, '--execution-segment-sequence', sequence];
}

/** Files of one k6 run in a cell folder; runner i of several gets its own. */
export function k6Files(cellDir, segment) {
  const tag = segment && segment.count > 1 ? `-r${segment.index + 1}` : '';
  return {
    output: join(cellDir, `k6${tag}.json.gz`),
    summary: join(cellDir, `k6-summary${tag}.json`),
    log: join(cellDir, `k6${tag}.log`),
  };
}

export function k6Args(scenario, cellDir, segment = null) {
  return [
    'run',
    '--quiet',
    '--no-color',
    '--no-usage-report',
    ...segmentArgs(segment),
    '--out',
    `json=${k6Files(cellDir, segment).output}`,
    join(ROOT, 'k6', 'scenarios', `${scenario.script}.js`),
  ];
}

/** Resolves {exitCode, startedAt}. Kills k6 (and reports infra error) past the budget. */
export async function runK6(scenario, { cellDir, url, urlB, host, signal, segment = null }) {
  const k6 = which('k6');
  if (!k6) throw new InfraError('k6 not found: run `make setup` (installs the pinned k6 into .tools/bin)');
  const files = k6Files(cellDir, segment);
  const env = toolEnv({ ...k6Env(scenario, { url, urlB, host, summary: files.summary }), K6_NO_USAGE_REPORT: 'true' });
  const args = k6Args(scenario, cellDir, segment);
  const startedAt = Date.now();
  // On bare metal, pin k6 to its own cores (TAILGATE_K6_CPUS=2-3) so the load
  // generator and the system under test do not compete for the same CPUs.
  const cpus = k6Cpus();
  const argv = cpus ? ['taskset', '-c', cpus, k6, ...args] : [k6, ...args];
  const budget = k6Budget(scenario);
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
// the scenario, started together; the cell's outcome names every runner (run/runner.js merges them).
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

/**
 * TAILGATE_K6_CPUS (a taskset list such as 2-3 or 0,2): the CPUs k6 is pinned to, checked
 * against this machine before any load — taskset refuses a CPU the machine lacks, and a
 * workflow's default made for a larger runner would otherwise fail every cell.
 */
export function k6Cpus(env = process.env, count = availableParallelism()) {
  const list = env.TAILGATE_K6_CPUS;
  if (!list) return null;
  if (!/^\d+(-\d+)?(,\d+(-\d+)?)*$/.test(list))
    throw new InputError(`TAILGATE_K6_CPUS=${JSON.stringify(list.slice(0, 40))}: expected a CPU list like 2-3 or 0,2`);
  const ids = list.split(',').flatMap((r) => {
    const [a, b = a] = r.split('-').map(Number);
    return [a, b];
  });
  const most = Math.max(...ids);
  if (most >= count)
    throw new InputError(
      `TAILGATE_K6_CPUS=${list}: this machine has CPUs 0-${count - 1}; name CPUs it has (or unset it to let k6 run anywhere)`,
    );
  return list;
}
