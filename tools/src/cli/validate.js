import { loadBench } from '../config/load.js';

export const summary = 'Check bench.yaml and report every problem at once';
export const usage = `Usage: tailgate validate [--config bench.yaml]

Exits 0 when the config is valid, 2 with every problem listed (file:line:col) otherwise.`;
export const options = { config: { type: 'string', default: process.env.TAILGATE_CONFIG ?? 'bench.yaml' } };

export function run(opts) {
  const cfg = loadBench(opts.config);
  const n = (o) => Object.keys(o).length;
  console.log(
    `${opts.config}: valid — ${n(cfg.controllers)} controllers, ${n(cfg.tunings)} tunings, ${n(cfg.scenarios)} scenarios, matrices: ${Object.keys(cfg.matrices).join(', ')}`,
  );
}
