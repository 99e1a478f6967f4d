// Data-plane CPU and memory from /proc, summed over the proxy's process group:
// workers that exit during a reload are counted through the master's cutime/cstime.
import { readdirSync, readFileSync } from 'node:fs';
import { runSync } from '../../exec/run.js';
import { round } from '../../numbers.js';

const TICK = Number(runSync(['getconf', 'CLK_TCK'], { timeoutMs: 5000 }).stdout.trim()) || 100;
const PAGE = Number(runSync(['getconf', 'PAGESIZE'], { timeoutMs: 5000 }).stdout.trim()) || 4096;

function stat(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    // fields after "(comm) ": state=0 ppid=1 pgrp=2 ... utime=11 stime=12 cutime=13 cstime=14 ... rss=21
    return {
      pgrp: Number(f[2]),
      cpu: Number(f[11]) + Number(f[12]),
      childCpu: Number(f[13]) + Number(f[14]),
      rss: Number(f[21]) * PAGE,
    };
  } catch {
    return null;
  }
}

export function sampleGroup(pgid) {
  let cpuTicks = 0;
  let rss = 0;
  let processes = 0;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const s = stat(name);
    if (!s || s.pgrp !== pgid) continue;
    processes++;
    cpuTicks += s.cpu + (Number(name) === pgid ? s.childCpu : 0);
    rss += s.rss;
  }
  return { cpuSeconds: cpuTicks / TICK, rssBytes: rss, processes };
}

export class ResourceSampler {
  constructor(pgid, everyMs = 1000) {
    this.pgid = pgid;
    this.first = sampleGroup(pgid);
    this.peakRss = this.first.rssBytes;
    this.timer = setInterval(() => this.sample(), everyMs);
    this.timer.unref();
  }

  sample() {
    const s = sampleGroup(this.pgid);
    if (s.rssBytes > this.peakRss) this.peakRss = s.rssBytes;
    return s;
  }

  stop() {
    clearInterval(this.timer);
    const last = this.sample();
    return {
      cpuSeconds: round(last.cpuSeconds - this.first.cpuSeconds),
      peakRssMiB: round(this.peakRss / 2 ** 20),
      processes: last.processes,
    };
  }
}
