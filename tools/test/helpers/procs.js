// Finds processes whose command line mentions a path: after a run, none may remain.
import { readdirSync, readFileSync } from 'node:fs';

export function processesMentioning(text) {
  const out = [];
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid) continue;
    let cmd;
    try {
      cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
    } catch {
      continue;
    }
    if (cmd.includes(text)) out.push(`${pid}: ${cmd.trim()}`);
  }
  return out;
}
