// What a user waits for before the verdict: the seconds from the job's start (CI sets
// TAILGATE_JOB_STARTED in its first tailgate step) or from this process's start, to the
// first request, and how much of the wall time was load. Printed, kept as timing.json
// and, on GitHub, added to the job summary.
import { appendSummary } from '../github-output.js';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { writeJsonAtomic } from '../result/write.js';

export function timing(outcomes, { now = Date.now(), env = process.env } = {}) {
  const windows = outcomes.map((o) => o.load).filter(Boolean);
  if (!windows.length) return null;
  const jobStarted = Number(env.TAILGATE_JOB_STARTED) * 1000 || performance.timeOrigin;
  const first = Math.min(...windows.map((w) => w.startedAt));
  const loadMs = windows.reduce((a, w) => a + (w.endedAt - w.startedAt), 0);
  const s = (ms) => Math.round(ms / 100) / 10;
  return {
    from: env.TAILGATE_JOB_STARTED ? 'job start' : 'tailgate start',
    beforeFirstRequestS: s(first - jobStarted),
    loadS: s(loadMs),
    wallS: s(now - jobStarted),
    loadShare: Math.round((100 * loadMs) / Math.max(1, now - jobStarted)),
  };
}

export function reportTiming(t, runDir, { env = process.env, log = console.log } = {}) {
  if (!t) return;
  const line = `Time to verdict: ${t.beforeFirstRequestS} s from ${t.from} to the first request; load ${t.loadS} s of ${t.wallS} s (${t.loadShare}%).`;
  log(`\n${line}`);
  writeJsonAtomic(join(runDir, 'timing.json'), { kind: 'tailgate.timing', ...t }, { force: true });
  appendSummary(line, { env });
}
