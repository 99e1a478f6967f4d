#!/usr/bin/env node
// A kind duet run's pairs gated as PRs of 3 pairs (each confirmed by the next 3,
// cyclically), as make perf's kind part gates them: how many PRs failed, how many needed
// a confirmation round, and the run's mean p99 and error ratios.
//   node tools/perf/duet-prs.js <run dir> <controller> <scenario> [assumedDuetCv]
import { errorTotals, gateDuetPrs, pairsOf } from './kind-duet-bench.js';
import { join } from 'node:path';

const [runDir, controller, scenario, cv] = process.argv.slice(2);
if (!scenario) {
  console.error('usage: duet-prs.js <run dir> <controller> <scenario> [assumedDuetCv]');
  process.exit(2);
}
const pairs = pairsOf(join(runDir, 'base'), join(runDir, 'head'), controller, controller, scenario);
const { baseErrors, headErrors } = errorTotals(pairs);
console.log(
  JSON.stringify({
    pairs: pairs.length,
    ...gateDuetPrs(pairs, {
      cell: `${controller}/default/${scenario}`,
      gate: cv ? { assumedDuetCv: Number(cv) } : {},
    }),
    errors: { base: baseErrors, head: headErrors },
  }),
);
