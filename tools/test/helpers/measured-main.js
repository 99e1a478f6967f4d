// The CLI in a process of its own, reporting its exit code, peak memory and time on
// stderr's last line, for tests that bound what a hostile input may cost.
import { readFileSync } from 'node:fs';
import { main } from '../../src/cli/main.js';

// VmHWM, not getrusage's maxrss: the latter survives exec, so a child forked from a
// large test process would report the parent's peak.
const peakMB = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))[1]) / 1024;

const t0 = process.hrtime.bigint();
const code = await main(process.argv.slice(2));
const ms = Number(process.hrtime.bigint() - t0) / 1e6;
process.stderr.write(`\n@@measure ${JSON.stringify({ code, maxRssMB: peakMB(), ms })}\n`);
process.exit(code);
