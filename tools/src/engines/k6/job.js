// k6 as the in-cluster load Job (targets/kube/load-job.js runs any engine's): the scenario
// scripts from ConfigMaps, `k6 run --paused` and `k6 resume`, k6's exit code and end time
// kept in the pod for the copy-out. Its image: grafana/k6 where it can be pulled, else
// `tools/scripts/build-engine-image.sh k6` (the pinned binary from .tools/bin).
import { join } from 'node:path';
import { PINS } from '../../version.js';
import { SCRIPTS, k6Args, k6Env, k6Files } from './plan.js';

export const K6_IMAGE = process.env.TAILGATE_K6_IMAGE || `grafana/k6:${PINS.k6.replace(/^v/, '')}`;

/** One runner's shell: its segment's k6 command, exit code and end time kept for copy-out. */
export function podScript(scenario, segment) {
  const files = k6Files('/out', segment);
  const args = k6Args(scenario, '/out', segment).map((a) => a.replace(SCRIPTS, '/k6'));
  const paused = segment ? ['run', '--paused', ...args.slice(1)] : args;
  return [
    `TG_SUMMARY=${files.summary} k6 ${paused.map((a) => `'${a}'`).join(' ')} > ${files.log} 2>&1`,
    'echo $? > /out/exit',
    'date +%s%3N > /out/end',
    'sleep 600',
  ].join('; ');
}

export const k6Job = Object.freeze({
  image: K6_IMAGE,
  // The scenario scripts, each folder a ConfigMap mounted where podScript's paths point.
  configMaps: [
    { volume: 'scenarios', name: 'tg-k6-scenarios', dir: join(SCRIPTS, 'scenarios'), mountPath: '/k6/scenarios' },
    { volume: 'lib', name: 'tg-k6-lib', dir: join(SCRIPTS, 'lib'), mountPath: '/k6/lib' },
  ],
  env: (scenario, url) => ({
    ...k6Env(scenario, { url, host: 'bench.local', summary: '/out/k6-summary.json' }),
    K6_NO_USAGE_REPORT: 'true',
  }),
  podScript,
  files: k6Files,
  copied: ['output', 'summary', 'log'],
  ready: ['k6', 'status'],
  release: ['k6', 'resume'],
  finish: async (files) => files,
});
