// CPU time of a command and its children, without extra tools: the wrapping shell
// reads its own cutime/cstime from /proc after the command has been waited for.
import { execFileSync, spawnSync } from 'node:child_process';

const TICK = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

export function timed(command, { env = process.env, cwd } = {}) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync('sh', ['-c', `${command}\nrc=$?\ncat /proc/$$/stat >&3\nexit $rc`], {
    env,
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    maxBuffer: 64 << 20,
  });
  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const stat = r.output[3] ?? '';
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const cpuMs = ((Number(f[13]) + Number(f[14])) / TICK) * 1000;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, wallMs, cpuMs };
}

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
