// The load Job's manifest (load-job.js runs it), whichever engine it runs: the engine's
// files mounted from ConfigMaps (k6's scenario scripts; none for Vegeta), one shell per
// runner that keeps the engine's exit code and end time for the copy-out, the placement
// over nodes. Pure: the dry run shows the same manifest.
import { engineOf } from '../../engines/index.js';
import { segmentsOf } from '../../engines/load.js';

export const JOB = 'tailgate-load';
const APP = { app: JOB };

/** image and configMaps ([{volume, name, mountPath}]): the engine's job (engines/<name>/job.js). */
export function jobManifest({ env, scripts, placement, image, configMaps = [] }) {
  const n = scripts.length;
  // Each index runs its own segment: the completion index picks the script.
  const script =
    n === 1
      ? scripts[0]
      : `case "$JOB_COMPLETION_INDEX" in\n${scripts.map((s, i) => `${i}) ${s} ;;`).join('\n')}\nesac`;
  const selector = { matchLabels: APP };
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
        metadata: { labels: APP },
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
              name: 'load',
              image,
              imagePullPolicy: image.startsWith('localhost/') ? 'Never' : 'IfNotPresent',
              command: ['sh', '-c', script],
              env: Object.entries(env).map(([name, value]) => ({
                name,
                value: String(value),
              })),
              volumeMounts: [
                ...configMaps.map((c) => ({ name: c.volume, mountPath: c.mountPath })),
                { name: 'out', mountPath: '/out' },
              ],
            },
          ],
          volumes: [
            ...configMaps.map((c) => ({ name: c.volume, configMap: { name: c.name } })),
            { name: 'out', emptyDir: {} },
          ],
        },
      },
    },
  };
}

/** The Job a plan would apply on an engine, for the dry run (placement as on a multi-node cluster). */
export function jobManifestFor(scenario, engineName) {
  const { job } = engineOf(engineName);
  const n = scenario.runners ?? 1;
  return jobManifest({
    env: job.env(scenario, 'http://<ingress-node-ip>'),
    scripts: segmentsOf(scenario).map((seg) => job.podScript(scenario, seg)),
    placement: n > 1 ? { spread: true, avoidIngress: true } : {},
    image: job.image,
    configMaps: job.configMaps,
  });
}
