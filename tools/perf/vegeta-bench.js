// Vegeta's own CPU per request, as `tailgate run` starts it (engines/vegeta/plan.js's
// attack for bench.yaml's steady scenario at this rate), beside the encode to the JSON that
// ingest reads — the figure k6-bench.js measures for k6, on the same pod and rate.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandLine } from '../src/exec/command.js';
import { which } from '../src/exec/tools.js';
import { attackArgs, attackPlan, targetsText } from '../src/engines/vegeta/plan.js';
import { steadyScenario } from './k6-command.js';
import { ProcessGroup } from '../src/targets/local/proc.js';
import { startPod } from '../src/targets/local/pod.js';
import { median, timed } from './measure.js';

const RATE = 1000;
const SECONDS = 10;
const REPS = Number(process.env.PERF_K6_REPS ?? 5);

export async function vegetaBench() {
  const dir = mkdtempSync(join(tmpdir(), 'tg-vegetaperf-'));
  const group = new ProcessGroup();
  const pod = await startPod(group, { name: 'perf', dir: join(dir, 'pod'), address: '127.0.99.11' });
  const vegeta = which('vegeta');
  const sc = steadyScenario({ rate: RATE, duration: `${SECONDS}s`, warmup: '0s', payload: '0KiB', maxVus: 2000 });
  const targets = join(dir, 'targets.json');
  writeFileSync(targets, targetsText(sc, { url: `http://${pod.address}:${pod.port}`, host: 'bench.local' }));
  const [attack] = attackPlan(sc);
  const bin = join(dir, 'out.bin');
  const attackCmd = commandLine([vegeta, ...attackArgs(attack, { scenario: sc, targets, output: bin })]);
  const encodeCmd = commandLine([vegeta, 'encode', '--to', 'json', `--output=${join(dir, 'out.json')}`, bin]);
  const cpu = { attack: [], encode: [] };
  const peak = [];
  try {
    for (let i = 0; i < REPS; i++) {
      // GNU time's %M: the attack's peak resident set (KiB).
      const a = timed(`/usr/bin/time -f %M -o '${join(dir, 'rss')}' ${attackCmd}`, { cwd: dir });
      if (a.status !== 0) throw new Error(`vegeta attack failed: ${a.stderr}`);
      cpu.attack.push(a.cpuMs);
      const e = timed(encodeCmd, { cwd: dir });
      if (e.status !== 0) throw new Error(`vegeta encode failed: ${e.stderr}`);
      cpu.encode.push(e.cpuMs);
      peak.push(readPeak(join(dir, 'rss')));
    }
  } finally {
    await group.stopAll();
  }
  const per1k = (ms) => median(ms) / 1000 / ((RATE * SECONDS) / 1000);
  return {
    rate: RATE,
    seconds: SECONDS,
    reps: REPS,
    attackCpuPer1k: per1k(cpu.attack),
    encodeCpuPer1k: per1k(cpu.encode),
    peakRssMiB: peak.every((p) => p !== null) ? median(peak) : null,
  };
}

function readPeak(file) {
  try {
    const kib = Number(readFileSync(file, 'utf8').trim().split('\n').pop());
    return Number.isFinite(kib) && kib > 0 ? Math.round(kib / 102.4) / 10 : null;
  } catch {
    return null;
  }
}
