// One request at a time, as in the AKS report's tests: a single VU, closed loop on
// purpose, with an optional pause after each request (TG_PAUSE, off when absent; test 3 used 500 ms).
// Latency here is per request, not under load; the gate reads it as such.
import { sleep } from 'k6';
import { loadFor, optional } from '../lib/env.js';
import { baseOptions, parseSeconds, withWarmup } from '../lib/options.js';
import { hit, preflight } from '../lib/target.js';

export { handleSummary } from '../lib/summary.js';

const load = loadFor('sequential');

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

const pause = parseSeconds(optional('TG_PAUSE') ?? '');

export default function () {
  hit();
  if (pause > 0) sleep(pause);
}
