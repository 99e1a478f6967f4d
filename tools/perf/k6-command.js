// The k6 command `tailgate run` executes for a scenario — built by engines/k6/plan.js's own
// k6Env/k6Args, so a perf figure measures what users run — as one shell line for
// timed()'s CPU accounting. `output: false` leaves out the JSON output (to price it).
import { join } from 'node:path';
import { commandLine } from '../src/exec/command.js';
import { ROOT, which } from '../src/exec/tools.js';
import { k6Args, k6Env, k6Files } from '../src/engines/k6/plan.js';
import { loadBench } from '../src/config/load.js';

/** bench.yaml's steady scenario with its resolved defaults, overridden by `over`. */
export function steadyScenario(over) {
  return { ...loadBench(join(ROOT, 'bench.yaml')).scenarios.steady, ...over };
}

export function k6Line(scenario, { dir, url, segment = null, output = true, extraEnv = {} }) {
  const files = k6Files(dir, segment);
  const args = k6Args(scenario, dir, segment);
  if (!output) args.splice(args.indexOf('--out'), 2);
  const env = { ...k6Env(scenario, { url, summary: files.summary }), ...extraEnv };
  return { line: commandLine([which('k6'), ...args], env), summary: files.summary };
}
