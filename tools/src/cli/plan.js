import { loadBench } from '../config/load.js';
import { planMatrix } from '../plan/plan.js';
import { describeCost } from '../plan/cost.js';
import { configOption, planOverrides } from './options.js';

export const summary = 'Print the cells a matrix expands to (JSON with --json, for workflow matrices)';
export const usage = `Usage: tailgate plan --matrix <name> [--config bench.yaml] [--json]
                    [--controllers a,b] [--tunings a,b] [--scenarios a,b]
                    [--rate N] [--duration 30s] [--repetitions N]   (checked as run checks them)`;
export const options = {
  ...configOption,
  matrix: { type: 'string', default: 'local' },
  json: { type: 'boolean', default: false },
  controllers: { type: 'string' },
  tunings: { type: 'string' },
  scenarios: { type: 'string' },
  rate: { type: 'string' },
  duration: { type: 'string' },
  repetitions: { type: 'string' },
};

export function run(opts) {
  const cfg = loadBench(opts.config);
  const plan = planMatrix(cfg, opts.matrix, planOverrides(opts));
  if (opts.json) {
    // One entry per controller x tuning x scenario: repetitions run inside one job.
    const include = [...new Map(plan.cells.map((c) => [c.key, { controller: c.controllerName, tuning: c.tuningName, scenario: c.scenarioName }])).values()];
    console.log(JSON.stringify({ include }));
    return;
  }
  for (const c of plan.cells) console.log(`${String(c.index + 1).padStart(3)}  ${c.target}  ${c.id}`);
  console.log(`\nEstimate: ${describeCost(plan)}`);
}
