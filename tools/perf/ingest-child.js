// Runs one ingest in a fresh process and reports its own CPU and peak RSS.
import { ingest } from '../src/ingest/ingest.js';

const t0 = process.hrtime.bigint();
const result = await ingest({ output: process.argv[2], meta: {} });
const usage = process.resourceUsage();
console.log(
  JSON.stringify({
    requests: result.wholeRun.requests,
    wallMs: Number(process.hrtime.bigint() - t0) / 1e6,
    cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000,
    maxRssMB: usage.maxRSS / 1024,
  }),
);
