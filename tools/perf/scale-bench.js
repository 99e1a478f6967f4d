// Two questions users ask before a long run, measured on this machine:
// - runners: the highest constant arrival rate one k6 process delivers with 0 dropped
//   iterations against one local nginx pod, vs two segment-split processes together;
// - plan: how close `tailgate plan`'s time estimate comes to the wall time of the run.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, toolEnv, which } from '../src/exec/tools.js';
import { segmentArgs } from '../src/run/k6.js';
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
  const k6 = which('k6');
  const steady = join(ROOT, 'k6', 'scenarios', 'steady.js');
  const best = { 1: 0, 2: 0 };
  const rows = [];
  try {
    for (const rate of RATES) {
      const row = { rate };
      for (const n of [1, 2]) {
        const runs = Array.from({ length: n }, (_, index) => {
          const seg =
            n > 1
              ? segmentArgs({ index, count: n })
                  .map((a) => `'${a}'`)
                  .join(' ')
              : '';
          // As tailgate runs it: with the gzipped JSON output ingest reads.
          const out = `--out json='${dir}/o${n}-${index}.json.gz'`;
          return `TG_SUMMARY='${dir}/s${n}-${index}.json' '${k6}' run -q --no-usage-report ${seg} ${out} '${steady}' &`;
        });
        const env = toolEnv({
          TG_TARGET_URL: `http://${pod.address}:${pod.port}`,
          TG_RATE: String(rate),
          TG_DURATION: `${SECONDS}s`,
          TG_WARMUP: '1s',
          TG_PAYLOAD: '0KiB',
          TG_MAX_VUS: '2000',
          K6_NO_USAGE_REPORT: 'true',
        });
        const r = timed(`${runs.join('\n')}\nwait`, { env, cwd: dir });
        if (r.status !== 0) throw new Error(`k6 failed at ${rate}/s with ${n} runner(s): ${r.stderr}`);
        let dropped = 0;
        for (let i = 0; i < n; i++) {
          const m = JSON.parse(readFileSync(`${dir}/s${n}-${i}.json`, 'utf8')).metrics ?? {};
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
