// Ramp the arrival rate until the SLO or the error budget breaks: the highest rate
// whose one-second windows stay within both is the max sustainable rate (the Kong
// comparison's RPS test). tailgate computes it from the per-second timeline.
import { loadFor } from '../lib/env.js';
import { baseOptions, withWarmup } from '../lib/options.js';
import { hit, preflight } from '../lib/target.js';

export { handleSummary } from '../lib/summary.js';

const load = loadFor('saturation');

const start = Math.max(1, Math.floor(load.maxRate / 10));

export const options = baseOptions(
  withWarmup(load.warmup, {
    executor: 'ramping-arrival-rate',
    startRate: start,
    timeUnit: '1s',
    preAllocatedVUs: load.vus,
    maxVUs: load.maxVus,
    stages: [{ target: load.maxRate, duration: load.duration }],
  }),
);

export function setup() {
  preflight();
}

export default function () {
  hit();
}
