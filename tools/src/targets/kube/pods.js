// The fault schedules' "pods" interface, implemented with kubectl against the
// backend Deployment. The ReplicaSet replaces deleted pods itself, so add() only
// waits; scaleTo() is `kubectl scale`.
import { InfraError } from '../../errors.js';
import { NAMESPACE } from './context.js';
import { run } from '../../exec/run.js';

export class KubePods {
  constructor({ kubectlFlags, events }) {
    this.flags = kubectlFlags;
    this.events = events;
    this.cache = [];
  }

  async kubectl(...args) {
    const r = await run(['kubectl', ...this.flags, '-n', NAMESPACE, ...args], { timeoutMs: 30_000 });
    if (r.code !== 0) throw new InfraError(`kubectl ${args.join(' ')}: ${r.output.trim()}`);
    return r.stdout;
  }

  async refresh() {
    const out = await this.kubectl(
      'get',
      'pods',
      '-l',
      'app=tailgate-backend',
      '-o',
      'jsonpath={range .items[*]}{.metadata.name} {.status.phase} {.metadata.deletionTimestamp}{"\\n"}{end}',
    );
    this.cache = out
      .split('\n')
      .map((l) => l.trim().split(' '))
      .filter(([n, phase, del]) => n && phase === 'Running' && !del)
      .map(([name]) => ({ name }));
    return this.cache;
  }

  endpoints() {
    return this.cache;
  }

  byName(name) {
    return this.cache.find((p) => p.name === name) ?? { name };
  }

  random() {
    return this.cache[Math.floor(Math.random() * this.cache.length)];
  }

  async remove(pod, mode) {
    this.events.emit(mode === 'kill' ? 'pod-killed' : 'pod-terminating', { pod: pod.name });
    const args = mode === 'kill' ? ['--grace-period=0', '--force'] : ['--wait=false'];
    await this.kubectl('delete', 'pod', pod.name, ...args);
    this.cache = this.cache.filter((p) => p.name !== pod.name);
  }

  async add() {
    await this.refresh();
  }

  async scaleTo(n) {
    this.events.emit('scale', { replicas: n });
    await this.kubectl('scale', 'deployment/backend', `--replicas=${n}`);
    await this.refresh();
  }

  /** Back to `replicas`, every pod rolled out: what a fault left (kills, churn) undone. */
  async settle(replicas) {
    await this.kubectl('scale', 'deployment/backend', `--replicas=${replicas}`);
    const r = await run(
      ['kubectl', ...this.flags, '-n', NAMESPACE, 'rollout', 'status', 'deployment/backend', '--timeout=120s'],
      { timeoutMs: 130_000 },
    );
    if (r.code !== 0) throw new InfraError(`the backend did not settle at ${replicas} replicas: ${r.output.trim()}`);
    await this.refresh();
  }

  async rolloutRestart() {
    this.events.emit('rollout-restart', {});
    await this.kubectl('rollout', 'restart', 'deployment/backend');
    await this.kubectl('rollout', 'status', 'deployment/backend', '--timeout=300s');
    await this.refresh();
  }
}
