// A grid of rate x connections (the tuning guide's 100..1000 step 100), one
// constant-arrival-rate step after another, each tagged step=r<rate>-c<conns>.
// Connections are VUs: with keep-alive each VU holds one connection.
import { loadFor } from '../lib/env.js';
import { baseOptions, parseSeconds } from '../lib/options.js';
import { hit, preflight } from '../lib/target.js';

export { handleSummary } from '../lib/summary.js';

const load = loadFor('sweep');

const stepSeconds = parseSeconds(load.duration);
const scenarios = {};
let at = parseSeconds(load.warmup);
for (const c of load.connections) {
  for (const r of load.rates) {
    scenarios[`r${r}_c${c}`] = {
      executor: 'constant-arrival-rate',
      rate: r,
      timeUnit: '1s',
      duration: load.duration,
      preAllocatedVUs: c,
      maxVUs: c,
      startTime: `${at}s`,
      tags: { phase: 'measure', step: `r${r}-c${c}` },
      gracefulStop: '2s',
    };
    at += stepSeconds + 2;
  }
}

export const options = baseOptions(scenarios);

export function setup() {
  preflight();
}

export default function () {
  hit();
}
