#!/usr/bin/env node
// What a duet run of init-prs.js says about its load engine (docs/duet-results.md, "Two
// engines"): per scenario, the A/A noise of the duet's p99 ratio (sd of log over pairs) and
// the engine's own CPU per 1,000 requests and peak memory (meta.loadGenerator, both sides'
// requests: one engine serves both).
//   node tools/perf/engine-figures.js <run dir>
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: engine-figures.js <run dir>');
  process.exit(2);
}
const results = (role) =>
  readdirSync(join(dir, role), { recursive: true })
    .filter((f) => f.endsWith('result.json'))
    .map((f) => ({ f, r: JSON.parse(readFileSync(join(dir, role, f), 'utf8')) }));
const base = new Map(results('base').map(({ f, r }) => [f, r]));
const byScenario = new Map();
for (const { f, r: head } of results('head')) {
  const b = base.get(f);
  if (!b) continue;
  const s = head.meta.scenario.name;
  if (!byScenario.has(s)) byScenario.set(s, []);
  byScenario.get(s).push({ base: b, head });
}
const sd = (xs) => {
  const m = xs.reduce((a, x) => a + x, 0) / xs.length;
  return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1));
};
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
for (const [s, pairs] of byScenario) {
  const logs = pairs.map((p) => Math.log(p.head.latency.percentiles.p99 / p.base.latency.percentiles.p99));
  const gen = pairs.map((p) => p.head.meta.loadGenerator).filter(Boolean);
  const perK = pairs
    .filter((p) => p.head.meta.loadGenerator)
    .map((p) => p.head.meta.loadGenerator.cpuSeconds / ((p.head.wholeRun.requests + p.base.wholeRun.requests) / 1000));
  const engine = gen[0]
    ? `${gen[0].engine} ${gen[0].version}`
    : pairs[0].head.meta.k6
      ? `k6 ${pairs[0].head.meta.k6}`
      : '?';
  console.log(
    `${s}: ${pairs.length} pairs on ${engine}; p99 ratio sd of log ${sd(logs).toFixed(3)} (geometric mean ×${Math.exp(logs.reduce((a, x) => a + x, 0) / logs.length).toFixed(3)}); late sends ${pairs.reduce((a, p) => a + (p.head.latency.source?.schedule?.lateSends ?? 0), 0)}, dropped ${pairs.reduce((a, p) => a + p.head.load.droppedIterations, 0)}` +
      (perK.length
        ? `; engine CPU ${median(perK).toFixed(3)} s per 1k requests (median), peak ${Math.max(...gen.map((g) => g.peakRssMiB))} MiB`
        : ''),
  );
}
