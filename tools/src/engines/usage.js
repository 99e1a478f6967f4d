// The load engine's own cost (docs/engines.md, "what each engine costs"): CPU seconds and
// peak resident memory of its process, read from /proc while it runs. A 2-core runner
// shares its CPU between the engine and the system under test, so an engine's CPU per
// request is part of what a gate on that runner can see.
import { readFileSync } from 'node:fs';

const TICK = 100; // USER_HZ: 100 on every Linux the runners use (sysconf(_SC_CLK_TCK))

function read(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return { cpuSeconds: (Number(f[11]) + Number(f[12])) / TICK, peakKiB: hwm ? Number(hwm[1]) : 0 };
  } catch {
    return null; // exited between two looks: the last look stands
  }
}

/** Samples pid every everyMs until stop(); {cpuSeconds, peakRssMiB} as last seen (≤ everyMs short). */
export function sampleUsage(pid, everyMs = 200) {
  let last = read(pid) ?? { cpuSeconds: 0, peakKiB: 0 };
  const timer = setInterval(() => {
    last = read(pid) ?? last;
  }, everyMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      last = read(pid) ?? last;
      return { cpuSeconds: last.cpuSeconds, peakRssMiB: Math.round((last.peakKiB / 1024) * 10) / 10 };
    },
  };
}

/** Several processes' usage, one after another: CPU adds, memory is the largest peak. */
export function addUsage(a, b) {
  if (!a) return b;
  return {
    cpuSeconds: Math.round((a.cpuSeconds + b.cpuSeconds) * 100) / 100,
    peakRssMiB: Math.max(a.peakRssMiB, b.peakRssMiB),
  };
}
