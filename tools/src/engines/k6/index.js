// k6 as a load engine: its plan (plan.js; the scenario scripts in the top-level k6/), its
// runner (run.js), its reader (read.js, line.js; summary.js: its own request count), its
// in-cluster Job (job.js). engines/index.js registers it; engine-contract.test.js holds it
// to the meaning every engine gives a scenario.
import { PINS } from '../../version.js';
import { k6Shown } from './plan.js';
import { runK6Segments } from './run.js';
import { readK6Output } from './read.js';
import { k6RequestCount } from './summary.js';
import { k6Job } from './job.js';

export const k6 = Object.freeze({
  name: 'k6',
  // The tools entry (exec/deps.js) whose probe gives the version, and its pin (version.js).
  tool: 'k6',
  missing: `k6 ${PINS.k6} is not installed (make setup downloads its release binary where GitHub is reachable); engine: auto or vegeta runs Vegeta`,
  run: runK6Segments,
  shown: k6Shown,
  reader: {
    read: readK6Output,
    what: "k6's --out json (.gz)",
    sniff: (text) => /^\{[^\n]*"type"\s*:\s*"(Point|Metric)"/.test(text),
  },
  // The count k6's own summary holds, against which its output is checked for completeness.
  summaryCount: k6RequestCount,
  job: k6Job,
});
