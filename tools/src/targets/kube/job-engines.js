// What the in-cluster load Job (k6-job.js) runs on each engine: its image, what each
// runner's shell does, how a paused runner is told it is ready and then released, which
// files are copied out and how they become what ingest reads. k6: the scenario scripts from
// ConfigMaps, `k6 run --paused`, `k6 resume`. Vegeta: the same attacks as on the runner
// (run/engines/vegeta-plan.js), waiting for /out/go, encoded in the pod.
import { createReadStream, createWriteStream, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { k6Env, k6Files } from '../../run/k6.js';
import { attackArgs, attackPlan } from '../../run/engines/vegeta-plan.js';
import { targetsText } from '../../run/engines/vegeta.js';
import { PINS } from '../../version.js';
import { K6_IMAGE, jobManifest, podScript as k6PodScript } from './k6-job-manifest.js';

export const VEGETA_IMAGE = process.env.TAILGATE_VEGETA_IMAGE || `localhost/tailgate-vegeta:${PINS.vegeta}`;

const k6 = {
  name: 'k6',
  image: K6_IMAGE,
  configMaps: true,
  env: (scenario, url) => k6Env(scenario, { url, host: 'bench.local', summary: '/out/k6-summary.json' }),
  podScript: k6PodScript,
  files: k6Files,
  copied: ['output', 'summary', 'log'],
  ready: ['k6', 'status'],
  release: ['k6', 'resume'],
  finish: async (files) => files,
  format: 'k6',
};

// Vegeta's files of runner `segment` in a folder: the pod keeps plain JSON (it has no gzip);
// the cell folder gets it gzipped, as the runner's own engine writes it.
function vegetaFiles(dir, segment) {
  const tag = segment && segment.count > 1 ? `-r${segment.index + 1}` : '';
  return {
    output: join(dir, `vegeta${tag}.json`),
    log: join(dir, `vegeta${tag}.log`),
    bin: (i) => join(dir, `vegeta${tag}-${i + 1}.bin`),
  };
}

const q = (a) => `'${String(a).replace(/'/g, `'\\''`)}'`;

// One runner's shell: ready, released (several runners only: they start together), the
// attacks one after the other, encoded, exit code and end time kept for the copy-out.
function vegetaPodScript(scenario, segment) {
  const f = vegetaFiles('/out', segment);
  const attacks = attackPlan(scenario, segment);
  const steps = attacks.map((a, i) => {
    const run = `vegeta ${attackArgs(a, { scenario, targets: '/out/targets.json', output: f.bin(i) })
      .map(q)
      .join(' ')}`;
    return a.gapMs ? `sleep ${a.gapMs / 1000} && ${run}` : run;
  });
  return [
    'touch /out/ready',
    ...(segment ? ['while ! test -f /out/go; do sleep 0.05; done'] : []),
    `printf '%s\\n' "$TG_TARGETS" > /out/targets.json`,
    `{ ${steps.join(' && ')}; } > ${f.log} 2>&1`,
    'rc=$?',
    `vegeta encode --to json --output=${f.output} ${attacks.map((_, i) => f.bin(i)).join(' ')} >> ${f.log} 2>&1 || rc=$?`,
    'echo $rc > /out/exit',
    'date +%s%3N > /out/end',
    'sleep 600',
  ].join('; ');
}

const vegeta = {
  name: 'vegeta',
  image: VEGETA_IMAGE,
  configMaps: false,
  env: (scenario, url) => ({ TG_TARGETS: targetsText(scenario, { url, urlB: null, host: 'bench.local' }).trim() }),
  podScript: vegetaPodScript,
  files: vegetaFiles,
  copied: ['output', 'log'],
  ready: ['test', '-f', '/out/ready'],
  release: ['touch', '/out/go'],
  // The copied JSON gzipped where ingest reads it (run/engines/vegeta.js's file names).
  finish: async (files) => {
    const gz = `${files.output}.gz`;
    await pipeline(createReadStream(files.output), createGzip({ level: 1 }), createWriteStream(gz));
    rmSync(files.output, { force: true });
    return { ...files, output: gz };
  },
  format: 'vegeta',
};

export const JOB_ENGINES = Object.freeze({ k6, vegeta });

/** The Job a plan would apply on an engine, for the dry run (placement as on a multi-node cluster). */
export function engineJobManifestFor(scenario, engineName = 'k6') {
  const engine = JOB_ENGINES[engineName] ?? k6;
  const n = scenario.runners ?? 1;
  const segments = n > 1 ? Array.from({ length: n }, (_, index) => ({ index, count: n })) : [null];
  return jobManifest({
    env: engine.env(scenario, 'http://<ingress-node-ip>'),
    scripts: segments.map((seg) => engine.podScript(scenario, seg)),
    placement: n > 1 ? { spread: true, avoidIngress: true } : {},
    image: engine.image,
    configMaps: engine.configMaps,
  });
}
