// Vegeta as a load engine: its plan (plan.js: the k6 scripts' meanings as attacks), its
// runner (run.js), its reader (read.js; attack.js: what an attack's name says of each
// result), its in-cluster Job (job.js). engines/index.js registers it;
// engine-contract.test.js holds it to the meaning every engine gives a scenario.
import { vegetaShown } from './plan.js';
import { runVegetaSegments } from './run.js';
import { readVegeta } from './read.js';
import { vegetaJob } from './job.js';

export const vegeta = Object.freeze({
  name: 'vegeta',
  tool: 'vegeta',
  missing: 'vegeta is not installed (make setup builds the pinned Vegeta)',
  run: runVegetaSegments,
  shown: vegetaShown,
  reader: {
    read: readVegeta,
    what: 'vegeta encode --to json or --to csv (.gz)',
    sniff: (text) =>
      /^\{[^\n]*"attack"\s*:/.test(text) ||
      /^\{[^\n]*"latency"\s*:\s*\d[^\n]*"code"\s*:/.test(text) ||
      /^\d{10,},\d{1,3},\d+,/.test(text), // --to csv: timestamp,code,latency,…
  },
  summaryCount: null,
  job: vegetaJob,
});
