#!/usr/bin/env node
// What the steady gate (init's pr: one duet cell, p99 at 5%) catches at a measured noise,
// by simulation through the real interim rule and gate (tools/test/helpers/sequential-sim.js):
// for each pair noise σ (sd of log p99 head/base per pair) and budget (maxRepetitions),
// no-op PRs red, ×1.10 caught, mean pairs. Calibrate σ on a run (init-prs.js, seq-prs.js);
// for a 4-core runner, on the σ this machine has at half the utilisation (half the rate).
//   node tools/perf/seq-sim-table.js [σ,σ,…] [max,max,…] [prs]
import { applyDefaults } from '../src/config/defaults.js';
import { familyBound } from '../src/compare/sequential.js';
import { sequentialRates } from '../test/helpers/sequential-sim.js';

const [sds = '0.07,0.09,0.11', maxes = '8,10', n = '200'] = process.argv.slice(2);
const defaults = applyDefaults({ controllers: {}, scenarios: {}, matrices: {} }).gate;
const rows = [
  '| σ per pair | maxRepetitions | no-op PRs red | mean pairs (no-op) | ×1.10 caught | mean pairs (×1.10) |',
  '|--:|--:|--:|--:|--:|--:|',
];
for (const sd of sds.split(',').map(Number))
  for (const max of maxes.split(',').map(Number)) {
    const gate = { ...defaults, assumedDuetCv: sd, latency: { p99: { ...defaults.latency.p99, threshold: '5%' } } };
    const design = { minPairs: 3, maxPairs: max, family: familyBound([{ key: 'c0/default/s' }], gate) };
    const cells = (ratio) => [{ sd, ratio }];
    const noop = sequentialRates(Number(n), gate, { ...design, cells: cells(1) });
    const x = sequentialRates(Number(n), gate, { ...design, cells: cells(1.1) });
    const pct = (v) => `${(100 * v).toFixed(1)}%`;
    rows.push(
      `| ${sd} | ${max} | ${pct(noop.failed)} | ${noop.pairs[0].toFixed(1)} | ${pct(x.caught)} | ${x.pairs[0].toFixed(1)} |`,
    );
  }
console.log(rows.join('\n'));
