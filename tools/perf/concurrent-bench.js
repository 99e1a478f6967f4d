// What concurrent A/B buys: base and head data planes live at once in front of the
// same pods, k6 alternating requests between them (targets/local/driver.js,
// cell.concurrent), against interleaved pairs (gate-bench.js). Measured as the sd of
// log(head/base) p99 over A/A pairs, and as the gate's per-PR rates when each pair is
// one concurrent run: no-op PRs, and a p99 canary that only the head's proxy carries
// (proxyDelay, nginx-dynamic).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyDefaults } from '../src/config/defaults.js';
import { gateCells } from '../src/compare/gate.js';
import { resultRep } from '../src/result/load.js';
import { mean } from '../src/compare/stats.js';
import { ingest } from '../src/ingest/ingest.js';
import { runCell } from '../src/targets/local/driver.js';
import { makeCell } from '../test/helpers/cells.js';
import { CELLS, SECONDS } from './gate-bench.js';

const PAIRS = 3;
const AA_PAIRS = Number(process.env.PERF_CONCURRENT_RUNS ?? 9);
const CANARY_PRS = Number(process.env.PERF_CONCURRENT_CANARIES ?? 5);
const CANARY_DELAY = '1ms';

let pairNo = 0;
async function concurrentPair(spec, head = spec) {
  const cell = makeCell({ controller: spec.controller, scenario: spec.scenario });
  const h = makeCell({ controller: head.controller, scenario: spec.scenario });
  cell.concurrent = { controller: h.controller, tuning: h.tuning };
  const dir = mkdtempSync(join(tmpdir(), 'tg-ab-'));
  const run = await runCell({ cell, cellDir: dir });
  const pair = ++pairNo;
  const startedAt = new Date(run.load.startedAt).toISOString();
  const side = async (s) => {
    const rep = resultRep(
      await ingest({
        output: join(dir, 'k6.json.gz'),
        meta: { rate: spec.scenario.rate, durationMs: SECONDS * 1000, k6ExitCode: run.load.exitCode },
        side: s,
      }),
      `${dir}#${s}`,
    );
    return { ...rep, meta: { ...rep.meta, pair, startedAt, scenario: { vus: 50 } } };
  };
  return { base: await side('a'), head: await side('b') };
}

async function pairs(spec, head, n) {
  const out = { base: [], head: [] };
  for (let i = 0; i < n; i++) {
    const p = await concurrentPair(spec, head);
    out.base.push(p.base);
    out.head.push(p.head);
  }
  return out;
}

async function gatePr(cells, heads, gate) {
  const inputs = cells.map((c, i) => ({ cell: CELLS[i].cell, ...c }));
  let res = gateCells(inputs, gate, { mode: 'paired' });
  const rounds = res.confirm.length;
  if (rounds) {
    const fresh = new Map();
    for (const c of res.confirm) {
      const i = CELLS.findIndex((x) => x.cell === c.cell);
      fresh.set(c.cell, await pairs(CELLS[i], heads[i], PAIRS));
    }
    res = gateCells(inputs, gate, { mode: 'paired', confirm: fresh });
  }
  return { failed: res.cells.filter((c) => c.verdict === 'regression').map((c) => c.cell), rounds };
}

export async function concurrentBench({ log = console.log, interleaved = null } = {}) {
  const gate = applyDefaults({ controllers: {}, scenarios: {}, matrices: {} }).gate;
  const aa = [];
  const noise = [];
  for (const spec of CELLS) {
    const p = await pairs(spec, spec, AA_PAIRS);
    aa.push(p);
    const d = p.base.map((b, j) => Math.log(p.head[j].percentiles.p99 / b.percentiles.p99));
    const sd = Math.sqrt(mean(d.map((x) => x * x)));
    const row = { cell: spec.cell, pairs: AA_PAIRS, sdLogPairRatio: Number(sd.toFixed(3)) };
    const inter = interleaved?.find((n) => n.cell === spec.cell);
    if (inter)
      Object.assign(row, {
        interleavedSdLogPairRatio: inter.sdLogPairRatio,
        varianceRatio: Number(((sd / inter.sdLogPairRatio) ** 2).toFixed(2)),
      });
    log(
      `  concurrent A/A ${spec.cell}: sd(log head/base p99) ${row.sdLogPairRatio}${inter ? ` (interleaved: ${inter.sdLogPairRatio})` : ''}`,
    );
    noise.push(row);
  }
  // No-op PRs from the A/A pairs, 3 pairs per cell each.
  const slice = (p, k) => ({
    base: p.base.slice(k * PAIRS, (k + 1) * PAIRS),
    head: p.head.slice(k * PAIRS, (k + 1) * PAIRS),
  });
  const prs = Math.floor(AA_PAIRS / PAIRS);
  const noop = [];
  for (let k = 0; k < prs; k++) {
    noop.push(
      await gatePr(
        aa.map((p) => slice(p, k)),
        CELLS,
        gate,
      ),
    );
    log(
      `  concurrent no-op PR ${k + 1}/${prs}: ${noop.at(-1).failed.length ? `FAIL ${noop.at(-1).failed.join(', ')}` : 'pass'}${noop.at(-1).rounds ? ' (confirmation round)' : ''}`,
    );
  }
  // Canary PRs: only the head's proxy of the first cell adds CANARY_DELAY.
  const canaryHead = { ...CELLS[0], controller: { ...CELLS[0].controller, proxyDelay: CANARY_DELAY } };
  const heads = CELLS.map((c, i) => (i === 0 ? canaryHead : c));
  const canary = [];
  let ratio = [];
  for (let k = 0; k < CANARY_PRS; k++) {
    const cells = aa.map((p, i) => (i === 0 ? null : slice(p, k % prs)));
    cells[0] = await pairs(CELLS[0], canaryHead, PAIRS);
    ratio.push(...cells[0].base.map((b, j) => cells[0].head[j].percentiles.p99 / b.percentiles.p99));
    canary.push(await gatePr(cells, heads, gate));
    log(
      `  concurrent p99 canary PR ${k + 1}/${CANARY_PRS} (+${CANARY_DELAY} in the head's proxy): ${canary.at(-1).failed.includes(CELLS[0].cell) ? 'caught' : 'missed'}${canary.at(-1).rounds ? ' (confirmation round)' : ''}`,
    );
  }
  ratio = Math.exp(mean(ratio.map(Math.log)));
  return {
    noise,
    noop: {
      prs: noop.length,
      failed: noop.filter((v) => v.failed.length).length,
      rounds: noop.filter((v) => v.rounds).length,
    },
    canary: {
      delay: CANARY_DELAY,
      p99Ratio: Number(ratio.toFixed(2)),
      prs: canary.length,
      caught: canary.filter((v) => v.failed.includes(CELLS[0].cell)).length,
    },
  };
}
