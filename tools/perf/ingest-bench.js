import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, timed } from './measure.js';

const CHILD = fileURLToPath(new URL('./ingest-child.js', import.meta.url));
const CLI = fileURLToPath(new URL('../bin/tailgate.js', import.meta.url));
// What one ingest may cost against zcat of the same file (issue 54, item 6): every cell of
// every PR pays it, once per side of a duet.
export const INGEST_ZCAT_LIMIT = 1.3;

export async function ingestBench(file, requests) {
  const zcat = [];
  const runs = [];
  for (let i = 0; i < 3; i++) {
    zcat.push(timed(`zcat '${file}' > /dev/null`).cpuMs);
    const r = timed(`'${process.execPath}' '${CHILD}' '${file}'`);
    if (r.status !== 0) throw new Error(`ingest child failed: ${r.stderr}`);
    runs.push(JSON.parse(r.stdout));
  }
  const cpu = median(runs.map((r) => r.cpuMs));
  const zcatMs = median(zcat);
  if (runs[0].requests !== requests)
    throw new Error(`ingest counted ${runs[0].requests} requests, expected ${requests}`);
  return {
    requests,
    fileMB: statSync(file).size / 2 ** 20,
    zcatMs,
    ingestCpuMs: cpu,
    ingestWallMs: median(runs.map((r) => r.wallMs)),
    ratio: cpu / zcatMs,
    requestsPerCpuSecond: requests / (cpu / 1000),
    maxRssMB: Math.max(...runs.map((r) => r.maxRssMB)),
  };
}

/**
 * `tailgate ingest` as a user or a cell script runs it — the CLI's start-up, the events,
 * the result written — against `zcat` of the same file, `reps` of each alternated:
 * medians, and whether the ratio is over INGEST_ZCAT_LIMIT.
 */
export function cliIngestBench(file, requests, { events = null, reps = 4 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'tg-perf-ingest-'));
  const out = join(dir, 'result.json');
  const zcat = [];
  const cpu = [];
  try {
    for (let i = 0; i < reps; i++) {
      zcat.push(timed(`zcat '${file}' > /dev/null`).cpuMs);
      const r = timed(
        `'${process.execPath}' '${CLI}' ingest '${file}' --out '${out}' --force${events ? ` --events '${events}'` : ''} > /dev/null`,
      );
      if (r.status !== 0) throw new Error(`tailgate ingest failed (exit ${r.status}): ${r.stderr.slice(0, 2000)}`);
      cpu.push(r.cpuMs);
    }
    const counted = JSON.parse(readFileSync(out, 'utf8')).wholeRun.requests;
    if (counted !== requests) throw new Error(`tailgate ingest counted ${counted} requests, expected ${requests}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const ingestCpuMs = median(cpu);
  const zcatMs = median(zcat);
  const ratio = ingestCpuMs / zcatMs;
  return {
    requests,
    reps,
    fileMB: statSync(file).size / 2 ** 20,
    zcatMs,
    ingestCpuMs,
    ratio,
    limit: INGEST_ZCAT_LIMIT,
    over: ratio > INGEST_ZCAT_LIMIT,
  };
}
