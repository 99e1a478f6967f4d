// Constant arrival rate: the OpenShift report's 1000 RPS x 60 s, the default shape
// for every fault scenario (pod-kill, churn, rollout run beside it, not in it).
import { loadFor } from '../lib/env.js';
import { baseOptions, withWarmup } from '../lib/options.js';
import { hit, preflight } from '../lib/target.js';

export { handleSummary } from '../lib/summary.js';

const load = loadFor('steady');

export const options = baseOptions(
  withWarmup(load.warmup, {
    executor: 'constant-arrival-rate',
    rate: load.rate,
    timeUnit: '1s',
    duration: load.duration,
    preAllocatedVUs: load.vus,
    maxVUs: load.maxVus,
  }),
);

export function setup() {
  preflight();
}

export default function () {
  hit();
}
