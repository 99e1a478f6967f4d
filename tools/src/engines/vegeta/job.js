// Vegeta as the in-cluster load Job (targets/kube/load-job.js runs any engine's): the same
// attacks as on the runner (plan.js), waiting for /out/go when several runners start
// together, encoded in the pod. Its image: `tools/scripts/build-engine-image.sh vegeta`
// (the pinned binary from .tools/bin) — Vegeta publishes none.
import { createReadStream, createWriteStream, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { PINS } from '../../version.js';
import { attackArgs, attackPlan, targetsText } from './plan.js';

export const VEGETA_IMAGE = process.env.TAILGATE_VEGETA_IMAGE || `localhost/tailgate-vegeta:${PINS.vegeta}`;

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

export const vegetaJob = Object.freeze({
  image: VEGETA_IMAGE,
  configMaps: [],
  env: (scenario, url) => ({ TG_TARGETS: targetsText(scenario, { url, urlB: null, host: 'bench.local' }).trim() }),
  podScript: vegetaPodScript,
  files: vegetaFiles,
  copied: ['output', 'log'],
  ready: ['test', '-f', '/out/ready'],
  release: ['touch', '/out/go'],
  // The copied JSON gzipped where ingest reads it (run.js's file names).
  finish: async (files) => {
    const gz = `${files.output}.gz`;
    await pipeline(createReadStream(files.output), createGzip({ level: 1 }), createWriteStream(gz));
    rmSync(files.output, { force: true });
    return { ...files, output: gz };
  },
});
