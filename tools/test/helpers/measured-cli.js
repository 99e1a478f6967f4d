// Runs the CLI in a child process and returns {code, out, maxRssMB, ms}: what one
// command cost, measured by the child itself (an in-process run would share the test's
// heap). A crash (an out-of-memory abort) has no measure line: code is the signal.
import { spawnSync } from 'node:child_process';

const MAIN = new URL('./measured-main.js', import.meta.url).pathname;

export function measuredCli(argv, { cwd = process.cwd(), timeoutMs = 60_000 } = {}) {
  const r = spawnSync(process.execPath, ['--max-old-space-size=2048', MAIN, ...argv], {
    cwd,
    encoding: 'utf8',
    timeout: timeoutMs,
    maxBuffer: 64 << 20,
  });
  const out = `${r.stdout}${r.stderr}`;
  const m = /@@measure (\{.*\})\s*$/.exec(r.stderr);
  const measure = m ? JSON.parse(m[1]) : { code: r.status ?? r.signal, maxRssMB: null, ms: null };
  return { ...measure, out: out.replace(/\n@@measure .*\n?$/, '') };
}
