// The k6 Job's manifest (targets/kube/k6-job.js runs it): the scenario scripts mounted
// from ConfigMaps, one shell per runner that keeps k6's exit code and end time for the
// copy-out, the placement over nodes. Pure: the dry run shows the same manifest.
import { join } from 'node:path';
import { ROOT } from '../../exec/tools.js';
import { k6Args, k6Env, k6Files } from '../../run/k6.js';
import { PINS } from '../../version.js';

export const K6_IMAGE = process.env.TAILGATE_K6_IMAGE || `grafana/k6:${PINS.k6.replace(/^v/, '')}`;
export const JOB = 'tailgate-k6';

/** One runner's shell: its segment's k6 command, exit code and end time kept for copy-out. */
export function podScript(scenario, segment) {
  const files = k6Files('/out', segment);
  const args = k6Args(scenario, '/out', segment).map((a) => a.replace(join(ROOT, 'k6'), '/k6'));
  const paused = segment ? ['run', '--paused', ...args.slice(1)] : args;
  return [
    `TG_SUMMARY=${files.summary} k6 ${paused.map((a) => `'${a}'`).join(' ')} > ${files.log} 2>&1`,
    'echo $? > /out/exit',
    'date +%s%3N > /out/end',
    'sleep 600',
  ].join('; ');
}

/** image and configMaps: the engine's (job-engines.js); k6's scripts come from ConfigMaps. */
export function jobManifest({ env, scripts, placement, image = K6_IMAGE, configMaps = true }) {
  const n = scripts.length;
  // Each index runs its own segment: the completion index picks the script.
  const script =
    n === 1
      ? scripts[0]
      : `case "$JOB_COMPLETION_INDEX" in\n${scripts.map((s, i) => `${i}) ${s} ;;`).join('\n')}\nesac`;
  const selector = { matchLabels: { app: 'tailgate-k6' } };
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: JOB },
    spec: {
      // One runner: never retried. Several: a runner that is deleted must not fail the
      // Job and take the others with it — tailgate names it and discards the cell itself.
      backoffLimit: n > 1 ? n : 0,
      ttlSecondsAfterFinished: 300,
      ...(n > 1 ? { completionMode: 'Indexed', completions: n, parallelism: n } : {}),
      template: {
        metadata: { labels: { app: 'tailgate-k6' } },
        spec: {
          restartPolicy: 'Never',
          // The shell waits in `sleep` for the copy-out and ignores SIGTERM: do not wait 30 s.
          terminationGracePeriodSeconds: 1,
          ...(placement.loadgen ? { nodeSelector: { 'tailgate.dev/role': 'loadgen' } } : {}),
          ...(placement.spread
            ? {
                topologySpreadConstraints: [
                  {
                    maxSkew: 1,
                    topologyKey: 'kubernetes.io/hostname',
                    whenUnsatisfiable: 'ScheduleAnyway',
                    labelSelector: selector,
                  },
                ],
              }
            : {}),
          ...(placement.avoidIngress
            ? {
                affinity: {
                  nodeAffinity: {
                    requiredDuringSchedulingIgnoredDuringExecution: {
                      nodeSelectorTerms: [
                        { matchExpressions: [{ key: 'ingress-ready', operator: 'NotIn', values: ['true'] }] },
                      ],
                    },
                  },
                },
              }
            : {}),
          tolerations: [{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' }],
          containers: [
            {
              name: 'k6',
              image,
              imagePullPolicy: image.startsWith('localhost/') ? 'Never' : 'IfNotPresent',
              command: ['sh', '-c', script],
              env: Object.entries({ ...env, K6_NO_USAGE_REPORT: 'true' }).map(([name, value]) => ({
                name,
                value: String(value),
              })),
              volumeMounts: [
                ...(configMaps
                  ? [
                      { name: 'scenarios', mountPath: '/k6/scenarios' },
                      { name: 'lib', mountPath: '/k6/lib' },
                    ]
                  : []),
                { name: 'out', mountPath: '/out' },
              ],
            },
          ],
          volumes: [
            ...(configMaps
              ? [
                  { name: 'scenarios', configMap: { name: 'tg-k6-scenarios' } },
                  { name: 'lib', configMap: { name: 'tg-k6-lib' } },
                ]
              : []),
            { name: 'out', emptyDir: {} },
          ],
        },
      },
    },
  };
}

/** The manifest a plan would apply, for the dry run (placement as on a multi-node cluster). */
export function jobManifestFor(scenario) {
  const n = scenario.runners ?? 1;
  const segments = n > 1 ? Array.from({ length: n }, (_, index) => ({ index, count: n })) : [null];
  const env = k6Env(scenario, {
    url: 'http://<ingress-node-ip>',
    host: 'bench.local',
    summary: '/out/k6-summary.json',
  });
  return jobManifest({
    env,
    scripts: segments.map((seg) => podScript(scenario, seg)),
    placement: n > 1 ? { spread: true, avoidIngress: true } : {},
  });
}
