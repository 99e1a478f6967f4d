// What concurrent A/B buys: base and head data planes live at once in front of the
// same pods, k6 alternating requests between them (targets/local/driver.js,
// cell.concurrent), against interleaved pairs (gate-bench.js). Measured as the sd of
// log(head/base) p99 over A/A pairs — the noise a paired test has to see through.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resultRep } from '../src/compare/inputs.js';
import { mean } from '../src/compare/stats.js';
import { ingest } from '../src/ingest/ingest.js';
import { runCell } from '../src/targets/local/driver.js';
import { makeCell } from '../test/helpers/cells.js';
import { CELLS, SECONDS } from './gate-bench.js';

const RUNS = Number(process.env.PERF_CONCURRENT_RUNS ?? 10);

async function concurrentPair(spec) {
  const cell = makeCell({ controller: spec.controller, scenario: spec.scenario });
  cell.concurrent = { controller: cell.controller, tuning: cell.tuning };
  const dir = mkdtempSync(join(tmpdir(), 'tg-ab-'));
  const run = await runCell({ cell, cellDir: dir });
  const side = async (s) => resultRep(await ingest({ k6Output: join(dir, 'k6.json.gz'), meta: { rate: spec.scenario.rate, durationMs: SECONDS * 1000, k6ExitCode: run.k6.exitCode }, side: s }), `${dir}#${s}`);
  return { base: await side('a'), head: await side('b') };
}

export async function concurrentBench({ log = console.log, interleaved = null } = {}) {
  const out = [];
  for (const spec of CELLS) {
    const d = [];
    for (let i = 0; i < RUNS; i++) {
      const p = await concurrentPair(spec);
      d.push(Math.log(p.head.percentiles.p99 / p.base.percentiles.p99));
    }
    const sd = Math.sqrt(mean(d.map((x) => x * x)));
    const row = { cell: spec.cell, pairs: RUNS, sdLogPairRatio: Number(sd.toFixed(3)) };
    const inter = interleaved?.find((n) => n.cell === spec.cell);
    if (inter) Object.assign(row, { interleavedSdLogPairRatio: inter.sdLogPairRatio, varianceRatio: Number(((sd / inter.sdLogPairRatio) ** 2).toFixed(2)) });
    log(`  concurrent A/A ${spec.cell}: sd(log head/base p99) ${row.sdLogPairRatio}${inter ? ` (interleaved: ${inter.sdLogPairRatio})` : ''}`);
    out.push(row);
  }
  return out;
}
