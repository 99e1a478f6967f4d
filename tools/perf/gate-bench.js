// The gate's per-PR error rates on this machine, from real runs: no-op PRs (A/A) and
// canary PRs (one cell made slower or more error-prone), each a PR of PERF_CELLS
// cells × 3 interleaved base/head pairs on the local target, gated the way the PR
// workflow gates (paired, confirm-on-fail with fresh pairs for candidate cells).
// Also: how much of p99's run-to-run noise two runs of an interleaved pair share.
import { writeFileSync } from 'node:fs';
import { applyDefaults } from '../src/config/defaults.js';
import { gateCells } from '../src/compare/gate.js';
import { median } from '../src/numbers.js';
import { mean, variance } from '../src/compare/stats.js';
import { runLocal } from '../test/helpers/local-run.js';

const PAIRS = 3;
const AA_PRS = Number(process.env.PERF_GATE_PRS ?? 10);
const CANARY_PRS = Number(process.env.PERF_GATE_CANARIES ?? 5);
export const SECONDS = Number(process.env.PERF_GATE_SECONDS ?? 8);
const steady = { script: 'steady', rate: 500, duration: `${SECONDS}s`, warmup: '1s', replicas: 2 };
export const CELLS = [
  { cell: 'nginx-dynamic/default/steady', controller: { variant: 'nginx-dynamic' }, scenario: steady },
  {
    cell: 'haproxy-runtime/default/steady-errors',
    controller: { variant: 'haproxy-runtime', backendErrorRate: 0.004 },
    scenario: steady,
  },
  { cell: 'nginx-reload/default/steady', controller: { variant: 'nginx-reload' }, scenario: steady },
  {
    cell: 'nginx-dynamic/default/churn',
    controller: { variant: 'nginx-dynamic', retries: 'off' },
    scenario: { ...steady, replicas: 4, faults: [{ type: 'churn', between: [4, 2], every: '1s' }] },
  },
];

let runs = 0;
async function measure(spec, pair) {
  const startedAt = new Date().toISOString();
  const { rep } = await runLocal({ controller: spec.controller, scenario: spec.scenario });
  runs++;
  return { ...rep, meta: { ...rep.meta, pair, startedAt, scenario: { vus: 50 } } };
}

// base and head of one cell, interleaved A B, B A, A B.
async function pairs(base, head, count, first = 1) {
  const out = { base: [], head: [] };
  for (let i = 0; i < count; i++) {
    const pair = first + i;
    if (i % 2 === 0) {
      out.base.push(await measure(base, pair));
      out.head.push(await measure(head, pair));
    } else {
      out.head.push(await measure(head, pair));
      out.base.push(await measure(base, pair));
    }
  }
  return out;
}

const saved = { prs: [] };
async function gatePr(label, cells, heads, gate, log) {
  const inputs = cells.map((c, i) => ({ cell: CELLS[i].cell, ...c }));
  let res = gateCells(inputs, gate, { mode: 'paired' });
  const confirmed = [];
  if (res.confirm.length) {
    const fresh = new Map();
    for (const c of res.confirm) {
      const i = CELLS.findIndex((x) => x.cell === c.cell);
      fresh.set(c.cell, await pairs(CELLS[i], heads[i], PAIRS, PAIRS + 1));
      confirmed.push({ cell: c.cell, runs: fresh.get(c.cell) });
    }
    res = gateCells(inputs, gate, { mode: 'paired', confirm: fresh });
  }
  const failed = res.cells.filter((c) => c.verdict === 'regression').map((c) => c.cell);
  saved.prs.push({ label, cells, confirmed });
  log(
    `  ${label}: ${failed.length ? `FAIL ${failed.join(', ')}` : 'pass'}${confirmed.length ? ` (confirmation round: ${confirmed.map((c) => c.cell).join(', ')})` : ''} [${runs} runs so far]`,
  );
  return {
    failed,
    confirmed,
    cells: res.cells.map((c) => ({
      cell: c.cell,
      verdict: c.verdict,
      reasons: c.reasons,
      p99: c.metrics.find((m) => m.metric === 'p99'),
    })),
  };
}

export async function gateBench({ log = console.log, rawFile = null } = {}) {
  const gate = applyDefaults({ controllers: {}, scenarios: {}, matrices: {} }).gate;
  const aa = [];
  for (let k = 0; k < AA_PRS; k++) {
    const cells = [];
    for (const spec of CELLS) cells.push(await pairs(spec, spec, PAIRS));
    aa.push({ cells, verdict: await gatePr(`no-op PR ${k + 1}/${AA_PRS}`, cells, CELLS, gate, log) });
    if (rawFile) writeFileSync(rawFile, JSON.stringify(saved));
  }
  // The p99 of the first cell's A/A runs sets the canary delay: +50% of its p99.
  const p99s = aa.flatMap((pr) => [...pr.cells[0].base, ...pr.cells[0].head]).map((r) => r.percentiles.p99);
  const delayMs = Number((0.5 * median(p99s)).toFixed(2));
  const canary = async (name, index, head) => {
    const out = [];
    const heads = CELLS.map((c, i) => (i === index ? head : c));
    for (let k = 0; k < CANARY_PRS; k++) {
      const cells = aa[k % aa.length].cells.map((c, i) => (i === index ? null : c));
      cells[index] = await pairs(CELLS[index], head, PAIRS);
      out.push(await gatePr(`${name} ${k + 1}/${CANARY_PRS}`, cells, heads, gate, log));
      if (rawFile) writeFileSync(rawFile, JSON.stringify(saved));
    }
    return {
      caught: out.filter((v) => v.failed.includes(CELLS[index].cell)).length,
      prs: out.length,
      otherCellsFailed: out.filter((v) => v.failed.some((c) => c !== CELLS[index].cell)).length,
      verdicts: out,
    };
  };
  const slow = await canary(`p99 canary (+${delayMs} ms backend delay)`, 0, {
    ...CELLS[0],
    controller: { ...CELLS[0].controller, backendDelay: `${delayMs}ms` },
  });
  const errors = await canary('error canary (backend errors ×3)', 1, {
    ...CELLS[1],
    controller: { ...CELLS[1].controller, backendErrorRate: 0.012 },
  });
  return {
    shape: { cells: CELLS.map((c) => c.cell), pairs: PAIRS, rate: steady.rate, seconds: SECONDS },
    aa: {
      prs: aa.length,
      failed: aa.filter((p) => p.verdict.failed.length).length,
      confirmationRounds: aa.filter((p) => p.verdict.confirmed.length).length,
      verdicts: aa.map((p) => p.verdict),
    },
    noise: sharedNoise(aa),
    canaries: { delayMs, slow, errors },
    runs,
  };
}

// Per cell: total run-to-run variance of log p99 vs the variance of the log ratio
// within a pair. shared = 1 − var(ratio) / (2·var(run)): 0 when pairs share nothing.
function sharedNoise(aa) {
  return CELLS.map((spec, i) => {
    const all = aa.flatMap((pr) => [...pr.cells[i].base, ...pr.cells[i].head]).map((r) => Math.log(r.percentiles.p99));
    // Subtract each PR's mean so that drift across PRs does not count as run noise.
    const perPr = aa.map((pr) => [...pr.cells[i].base, ...pr.cells[i].head].map((r) => Math.log(r.percentiles.p99)));
    const within = perPr.flatMap((xs) => xs.map((x) => x - mean(xs)));
    const runVar = (variance(within) * (within.length - 1)) / (within.length - aa.length);
    const d = aa.flatMap((pr) =>
      pr.cells[i].base.map((b, j) => Math.log(pr.cells[i].head[j].percentiles.p99) - Math.log(b.percentiles.p99)),
    );
    const ratioVar = mean(d.map((x) => x * x));
    return {
      cell: spec.cell,
      p99MedianMs: Number(Math.exp(median(all)).toFixed(3)),
      sdLogRun: Number(Math.sqrt(runVar).toFixed(3)),
      sdLogPairRatio: Number(Math.sqrt(ratioVar).toFixed(3)),
      shared: Number((1 - ratioVar / (2 * runVar)).toFixed(2)),
    };
  });
}

/**
 * Re-gates recorded PRs with the gate code as it is now (the runs are expensive, the
 * analysis is not): `node tools/perf/gate-bench.js .tools/perf/gate-runs.json`.
 */
export function reanalyse(saved, gate = applyDefaults({ controllers: {}, scenarios: {}, matrices: {} }).gate) {
  const out = {};
  for (const pr of saved.prs) {
    const kind = pr.label.replace(/ \d+\/\d+$/, '');
    const inputs = pr.cells.map((c, i) => ({ cell: CELLS[i].cell, ...c }));
    const first = gateCells(inputs, gate, { mode: 'paired' });
    const fresh = new Map(
      pr.confirmed.filter((c) => first.confirm.some((x) => x.cell === c.cell)).map((c) => [c.cell, c.runs]),
    );
    const res = fresh.size ? gateCells(inputs, gate, { mode: 'paired', confirm: fresh }) : first;
    const failed = res.cells.filter((c) => c.verdict === 'regression').map((c) => c.cell);
    const row = (out[kind] ??= { prs: 0, failed: 0, byCell: {}, rounds: 0, missingRounds: 0 });
    row.prs++;
    if (failed.length) row.failed++;
    for (const c of failed) row.byCell[c] = (row.byCell[c] ?? 0) + 1;
    if (first.confirm.length) row.rounds++;
    if (first.confirm.some((c) => !fresh.has(c.cell))) row.missingRounds++;
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { readFileSync } = await import('node:fs');
  console.log(JSON.stringify(reanalyse(JSON.parse(readFileSync(process.argv[2], 'utf8'))), null, 1));
}
