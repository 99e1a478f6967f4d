// One request at a time, as in the AKS report's tests: a single VU, closed loop on
// purpose. Latency here is per request, not under load; the gate reads it as such.
import { load } from '../lib/env.js';
import { baseOptions, withWarmup } from '../lib/options.js';
import { hit, preflight } from '../lib/target.js';

export { handleSummary } from '../lib/summary.js';

export const options = baseOptions(withWarmup(load.warmup, {
  executor: 'constant-vus',
  vus: 1,
  duration: load.duration,
}));

export function setup() {
  preflight();
}

export default function () {
  hit();
}
