// Result files from known distributions, through the real ingest path (k6 lines ->
// ingest), so gate tests know the truth they are checking against.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ingest } from '../../src/ingest/ingest.js';
import { durationLine, droppedLine, k6File } from './k6-lines.js';
import { scratchDir } from './scratch.js';

const dir = scratchDir('tg-synth-');
let counter = 0;

// Deterministic PRNG (mulberry32) so a failing test fails the same way every time.
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Log-normal latencies around `medianMs` (sigma on the log scale), optional errors and drops. */
export async function syntheticResult({
  cell = 'c/t/s',
  n = 20_000,
  medianMs = 1,
  sigma = 0.5,
  scale = 1,
  errors = {},
  dropped = 0,
  seed = 1,
  profile = 'local',
  fingerprint = 'test-machine',
  rate = 1000,
  k6ExitCode = 0,
} = {}) {
  const rand = rng(seed);
  const t0 = Date.parse('2026-11-22T10:00:00Z');
  const lines = [];
  for (let i = 0; i < n; i++) {
    const z = Math.sqrt(-2 * Math.log(rand() || 1e-12)) * Math.cos(2 * Math.PI * rand());
    lines.push(durationLine({ ts: t0 + (i * 1000) / rate, ms: medianMs * scale * Math.exp(sigma * z) }));
  }
  let at = 0;
  for (const [cls, count] of Object.entries(errors)) {
    const status = { http502: '502', http503: '503', http5xx: '500' }[cls] ?? '0';
    const code = { refused: '1212', reset: '1220', timeout: '1050' }[cls];
    for (let i = 0; i < count; i++) lines.push(durationLine({ ts: t0 + (at++ % n), ms: 1, status, errorCode: code }));
  }
  if (dropped) lines.push(droppedLine({ ts: t0 + 10, count: dropped }));
  const file = join(dir, `synthetic-${++counter}.json.gz`);
  writeFileSync(file, k6File(lines));
  const result = await ingest({
    output: file,
    meta: {
      rate,
      durationMs: (n / rate) * 1000,
      profile,
      machine: { fingerprint, cpuModel: 'test', cpus: 2 },
      k6ExitCode,
      controller: { name: cell.split('/')[0] },
      tuning: { name: cell.split('/')[1] },
      scenario: { name: cell.split('/')[2] },
      repetition: 1,
    },
  });
  const out = join(dir, `result-${counter}.json`);
  writeFileSync(out, JSON.stringify(result));
  return { result, file: out };
}
