// One request at a time, as in the AKS report's tests: a single VU, closed loop on
// purpose, with an optional pause after each request (TG_PAUSE; test 3 used 500 ms).
// Latency here is per request, not under load; the gate reads it as such.
import { sleep } from 'k6';
import { load } from '../lib/env.js';
import { baseOptions, parseSeconds, withWarmup } from '../lib/options.js';
import { hit, preflight } from '../lib/target.js';

export { handleSummary } from '../lib/summary.js';

export const options = baseOptions(
  withWarmup(load.warmup, {
    executor: 'constant-vus',
    vus: 1,
    duration: load.duration,
  }),
);

export function setup() {
  preflight();
}

const pause = parseSeconds(load.pause);

export default function () {
  hit();
  if (pause > 0) sleep(pause);
}
