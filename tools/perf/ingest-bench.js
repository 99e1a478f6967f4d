import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { median, timed } from './measure.js';

const CHILD = fileURLToPath(new URL('./ingest-child.js', import.meta.url));

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
