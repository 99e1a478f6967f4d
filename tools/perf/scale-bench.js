// Two questions users ask before a long run, measured on this machine:
// - runners: the highest constant arrival rate one k6 process delivers with 0 dropped
//   iterations against one local nginx pod, vs two segment-split processes together;
// - plan: how close `tailgate plan`'s time estimate comes to the wall time of the run.
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, toolEnv } from '../src/exec/tools.js';
import { k6Line, steadyScenario } from './k6-command.js';
import { ProcessGroup } from '../src/targets/local/proc.js';
import { startPod } from '../src/targets/local/pod.js';
import { loadBench } from '../src/config/load.js';
import { planMatrix } from '../src/plan/plan.js';
import { estimateCost } from '../src/plan/cost.js';
import { timed } from './measure.js';

const RATES = [1000, 1500, 2000, 2500, 3000, 3500, 4000, 4500];
const SECONDS = 8;

export async function runnersBench() {
  const dir = mkdtempSync(join(tmpdir(), 'tg-scale-'));
  const group = new ProcessGroup();
  const pod = await startPod(group, { name: 'scale', dir: join(dir, 'pod'), address: '127.0.99.11' });
  const url = `http://${pod.address}:${pod.port}`;
  const best = { 1: 0, 2: 0 };
  const rows = [];
  try {
    for (const rate of RATES) {
      const row = { rate };
      for (const n of [1, 2]) {
        // As tailgate runs it (k6-command.js): with the gzipped JSON output ingest reads.
        const sc = steadyScenario({ rate, duration: `${SECONDS}s`, warmup: '1s', payload: '0KiB', maxVus: 2000 });
        const runs = Array.from({ length: n }, (_, index) =>
          k6Line(sc, { dir: join(dir, `n${n}`), url, segment: n > 1 ? { index, count: n } : null }),
        );
        mkdirSync(join(dir, `n${n}`), { recursive: true });
        const env = toolEnv({ K6_NO_USAGE_REPORT: 'true' });
        const r = timed(`${runs.map((x) => `${x.line} &`).join('\n')}\nwait`, { env, cwd: dir });
        if (r.status !== 0) throw new Error(`k6 failed at ${rate}/s with ${n} runner(s): ${r.stderr}`);
        let dropped = 0;
        for (const { summary } of runs) {
          const m = JSON.parse(readFileSync(summary, 'utf8')).metrics ?? {};
          dropped += m.dropped_iterations?.values?.count ?? m.dropped_iterations?.count ?? 0;
        }
        row[`dropped${n}`] = dropped;
        row[`cpu${n}`] = Math.round(r.cpuMs / 100) / 10;
        if (dropped === 0 && rate > best[n]) best[n] = rate;
      }
      rows.push(row);
    }
  } finally {
    await group.stopAll();
  }
  return { seconds: SECONDS, rows, best };
}

export async function planBench() {
  const overrides = [
    '--controllers',
    'nginx-reload',
    '--scenarios',
    'steady,churn',
    '--duration',
    '6s',
    '--repetitions',
    '2',
  ];
  const plan = planMatrix(loadBench(join(ROOT, 'bench.yaml')), 'local', {
    controllers: ['nginx-reload'],
    scenarios: ['steady', 'churn'],
    duration: '6s',
    repetitions: 2,
  });
  const estimateS = estimateCost(plan).longestJobS;
  const out = mkdtempSync(join(tmpdir(), 'tg-planbench-'));
  const r = timed(
    `node tools/bin/tailgate.js run --matrix local ${overrides.join(' ')} --out '${out}' --no-confirm >/dev/null 2>&1`,
    { cwd: ROOT, env: toolEnv() },
  );
  return {
    cells: plan.cells.length,
    estimateS: Math.round(estimateS),
    measuredS: Math.round(r.wallMs / 1000),
    ratio: Math.round((r.wallMs / 1000 / estimateS) * 100) / 100,
  };
}
