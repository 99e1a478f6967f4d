// The gate's error rates on this machine: A/A false fails over 20 comparisons of
// real runs, and the smallest injected p99 regression it catches.
import { applyDefaults } from '../src/config/defaults.js';
import { compareCell } from '../src/compare/cell.js';
import { mean, variance } from '../src/compare/stats.js';
import { runLocal } from '../test/helpers/local-run.js';

const RATE = 500;
const SECONDS = 5;
const scenario = { script: 'steady', rate: RATE, duration: `${SECONDS}s`, warmup: '1s', replicas: 2 };

async function measure(controller = {}) {
  return (await runLocal({ controller: { variant: 'nginx-dynamic', ...controller }, scenario })).rep;
}

export async function gateBench() {
  const gate = applyDefaults({ controllers: {}, scenarios: {}, matrices: {} }).gate;
  const noFloor = { ...gate, latency: Object.fromEntries(Object.entries(gate.latency).map(([k, v]) => [k, { ...v, floor: '0ms' }])) };
  const runs = [];
  for (let i = 0; i < 21; i++) {
    runs.push(await measure());
    process.stdout.write(`  A/A run ${i + 1}/21: p99 ${runs.at(-1).percentiles.p99} ms\n`);
  }
  let fails = 0;
  for (let i = 0; i < 20; i++) if (compareCell({ cell: 'aa', base: [runs[i]], head: [runs[i + 1]], gate }).verdict === 'regression') fails++;
  const p99s = runs.map((r) => r.percentiles.p99);
  const logs = p99s.map(Math.log);
  const base = runs[0];
  const canaries = [];
  for (const delayMs of [0.25, 0.5, 1, 2, 4]) {
    const head = await measure({ backendDelay: `${delayMs}ms` });
    const v = compareCell({ cell: 'canary', base: [base], head: [head], gate });
    const v0 = compareCell({ cell: 'canary', base: [base], head: [head], gate: noFloor });
    canaries.push({ delayMs, ratio: v.metrics.find((m) => m.metric === 'p99').ratio, verdict: v.verdict, verdictNoFloor: v0.verdict });
    process.stdout.write(`  canary +${delayMs} ms: ${canaries.at(-1).verdict}\n`);
  }
  const caught = (key) => canaries.filter((c) => c[key] === 'regression').map((c) => c.ratio);
  return {
    rate: RATE,
    seconds: SECONDS,
    aa: { comparisons: 20, fails, p99Median: [...p99s].sort((a, b) => a - b)[10], p99Cv: Math.sqrt(variance(logs)), p99Mean: mean(p99s) },
    canaries,
    smallestDetected: caught('verdict').length ? Math.min(...caught('verdict')) : null,
    smallestDetectedNoFloor: caught('verdictNoFloor').length ? Math.min(...caught('verdictNoFloor')) : null,
  };
}
