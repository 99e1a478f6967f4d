// k6's own CPU per request: a minimal arrival-rate script vs tailgate's steady
// scenario, and the extra cost of the gzipped JSON output tailgate ingests.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toolEnv, which } from '../src/exec/tools.js';
import { k6Line, steadyScenario } from './k6-command.js';
import { ProcessGroup } from '../src/targets/local/proc.js';
import { startPod } from '../src/targets/local/pod.js';
import { median, timed } from './measure.js';

const RATE = 1000;
const SECONDS = 10;
const REPS = Number(process.env.PERF_K6_REPS ?? 5);

const MINIMAL = `import http from 'k6/http';
export const options = { scenarios: { s: { executor: 'constant-arrival-rate', rate: ${RATE}, timeUnit: '1s', duration: '${SECONDS}s', preAllocatedVUs: 50, maxVUs: 200 } } };
export default function () { http.get(__ENV.TG_TARGET_URL + '/0KiB'); }
`;

export async function k6Bench() {
  const dir = mkdtempSync(join(tmpdir(), 'tg-k6perf-'));
  const minimal = join(dir, 'minimal.js');
  writeFileSync(minimal, MINIMAL);
  const group = new ProcessGroup();
  const pod = await startPod(group, { name: 'perf', dir: join(dir, 'pod'), address: '127.0.99.10' });
  const k6 = which('k6');
  // tailgate's steady scenario at this rate, as `tailgate run` starts it (k6-command.js).
  const sc = steadyScenario({ rate: RATE, duration: `${SECONDS}s`, warmup: '0s', payload: '0KiB' });
  const url = `http://${pod.address}:${pod.port}`;
  const env = toolEnv({ TG_TARGET_URL: url, TG_RATE: String(RATE), K6_NO_USAGE_REPORT: 'true' });
  const steady = (opts) => {
    const { line, summary } = k6Line(sc, { dir, url, ...opts });
    return { cmd: line, summary };
  };
  const variants = [
    {
      label: 'minimal script (one http.get, arrival-rate)',
      cmd: `'${k6}' run -q --no-usage-report --summary-export='${dir}/s.json' '${minimal}'`,
      summary: `${dir}/s.json`,
    },
    {
      label: 'tailgate steady.js with the exact-summary threshold (TG_EXACT_SUMMARY=1, the default before)',
      ...steady({ output: false, extraEnv: { TG_EXACT_SUMMARY: '1' } }),
    },
    { label: 'tailgate steady.js', ...steady({ output: false }) },
    { label: 'what tailgate run runs: steady.js + --out json=….gz', ...steady({}) },
  ];
  try {
    // Alternated (A B C D, A B C D, …) so that the machine's drift hits every variant alike.
    for (const v of variants) Object.assign(v, { cpu: [], drops: [] });
    for (let i = 0; i < REPS; i++) {
      for (const v of variants) {
        const r = timed(v.cmd, { env, cwd: dir });
        if (r.status !== 0) throw new Error(`k6 failed (${v.label}): ${r.stderr}`);
        v.cpu.push(r.cpuMs);
        const s = JSON.parse(readFileSync(v.summary, 'utf8'));
        const m = s.metrics ?? {};
        v.drops.push(m.dropped_iterations?.values?.count ?? m.dropped_iterations?.count ?? 0);
      }
    }
    for (const v of variants) {
      v.cpuPer1k = median(v.cpu) / 1000 / ((RATE * SECONDS) / 1000);
      v.dropped = Math.max(...v.drops);
    }
  } finally {
    await group.stopAll();
  }
  for (const v of variants) v.ratio = v.cpuPer1k / variants[0].cpuPer1k;
  return {
    rate: RATE,
    seconds: SECONDS,
    reps: REPS,
    variants: variants.map(({ label, cpuPer1k, ratio, dropped }) => ({ label, cpuPer1k, ratio, dropped })),
  };
}
