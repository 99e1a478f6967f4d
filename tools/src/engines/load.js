// What every load engine does alike, whichever runs a cell: the load a cell puts on (a
// duet's both sides), which role each side of a duet plays, how long a run may take, and
// the CPUs the load generator is pinned to. An engine's folder holds only its own.
import { availableParallelism } from 'node:os';
import { scenarioMs } from '../config/normalise.js';
import { k6Load } from '../config/duet-load.js';
import { InputError } from '../errors.js';

/** What an engine runs for a cell: a duet (cell.concurrent) whose sides are loaded at once runs
 *  both sides' rate and VUs in one load generator (config/duet-load.js, the rule validation
 *  checks a profile's maxRate with); sides loaded one at a time (alternate) get the rate each. */
export function cellLoad(cell) {
  return k6Load(cell.scenario, { duet: cell.concurrent, alternate: cell.alternate });
}

/**
 * Which role each of the load generator's sides plays in a duet: [side a, side b]. The sides
 * swap every other pair (the base is side a in odd repetitions, side b in even ones), so
 * whatever favours one side — first in the alternation, its host port, its namespace — lands
 * on base and head alike instead of reading as a change.
 */
export function duetSides(cell) {
  return cell.concurrent && cell.repetition % 2 === 0 ? ['head', 'base'] : ['base', 'head'];
}

/** The URLs the load generator gets for a duet's sides a and b, from the base's and the head's. */
export function sideUrls(cell, baseUrl, headUrl) {
  return duetSides(cell)[0] === 'base' ? [baseUrl, headUrl] : [headUrl, baseUrl];
}

/** Wall-clock bound of a load run: warm-up + measured time (+ sweep steps) + grace. */
export function loadBudget(scenario) {
  const { warmup, duration } = scenarioMs(scenario);
  const steps = scenario.script === 'sweep' ? scenario.rates.length * scenario.connections.length : 0;
  return warmup + (steps ? (duration + 2000) * steps : duration) + 45_000;
}

// The load generator's CPUs: TAILGATE_LOAD_CPUS, or the name it had when k6 was the only
// engine (workflows and repository variables still set it).
const CPU_VARS = ['TAILGATE_LOAD_CPUS', 'TAILGATE_K6_CPUS'];

/**
 * TAILGATE_LOAD_CPUS (a taskset list such as 2-3 or 0,2): the CPUs the load generator is
 * pinned to, checked against this machine before any load — taskset refuses a CPU the
 * machine lacks, and a workflow's default made for a larger runner would otherwise fail
 * every cell.
 */
export function loadCpus(env = process.env, count = availableParallelism()) {
  const name = CPU_VARS.find((v) => env[v]);
  if (!name) return null;
  const list = env[name];
  if (!/^\d+(-\d+)?(,\d+(-\d+)?)*$/.test(list))
    throw new InputError(`${name}=${JSON.stringify(list.slice(0, 40))}: expected a CPU list like 2-3 or 0,2`);
  const ids = list.split(',').flatMap((r) => {
    const [a, b = a] = r.split('-').map(Number);
    return [a, b];
  });
  const most = Math.max(...ids);
  if (most >= count)
    throw new InputError(
      `${name}=${list}: this machine has CPUs 0-${count - 1}; name CPUs it has (or unset it to let the load generator run anywhere)`,
    );
  return list;
}

/** argv under `taskset` when the load generator has its own CPUs: on bare metal, the load
 *  generator and the system under test do not compete for the same cores. */
export function pinned(argv) {
  const cpus = loadCpus();
  return cpus ? ['taskset', '-c', cpus, ...argv] : argv;
}

/** runners > 1: one segment per runner ({index, count}); one runner: [null]. */
export function segmentsOf(scenario) {
  const n = scenario.runners ?? 1;
  return n > 1 ? Array.from({ length: n }, (_, index) => ({ index, count: n })) : [null];
}
