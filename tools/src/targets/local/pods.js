// The backend "Deployment": a set of nginx pods on 127.x.y.<n>, grown and shrunk
// like a ReplicaSet. Listeners hear about every change of the ready set, which is
// all an endpoint controller ever sees.
import { join } from 'node:path';
import { startPod } from './pod.js';

export class PodSet {
  constructor({ group, dir, subnet, events, delayMs = 0, errorRate = 0, network = null, nodeLatencyMs = 0 }) {
    Object.assign(this, { group, dir, subnet, events, delayMs, errorRate, network, nodeLatencyMs });
    this.ready = new Map();
    this.next = 10;
    this.listeners = [];
    this.stopping = false;
  }

  onChange(fn) {
    this.listeners.push(fn);
  }

  endpoints() {
    return [...this.ready.values()].map(({ address, port, name }) => ({ address, port, name }));
  }

  async add() {
    const n = this.next++;
    if (n > 250) throw new Error('pod addresses exhausted (250 pods per run)');
    const name = `pod-${n}`;
    // In netns mode each pod is its own host on the bridge (its own somaxconn).
    const host = this.network
      ? this.network.addHost(n, { somaxconn: 4096, delayMs: this.nodeLatencyMs })
      : { address: `${this.subnet}.${n}` };
    const pod = await startPod(this.group, {
      name,
      dir: join(this.dir, name),
      address: host.address,
      ns: host.ns,
      delayMs: this.delayMs,
      errorRate: this.errorRate,
    });
    if (this.stopping) {
      await this.group.killGroup(pod.child);
      return pod;
    }
    this.ready.set(name, pod);
    // A pod that dies on its own (crash, OOM) leaves the endpoint set too.
    pod.child.exited.then(() => {
      if (!this.stopping && this.ready.delete(name)) {
        this.events.emit('pod-exited', { pod: name });
        this.changed();
      }
    });
    this.events.emit('pod-ready', { pod: name, address: pod.address });
    this.changed();
    return pod;
  }

  /** mode "kill": SIGKILL the whole process group (a node dying, an OOM kill).
   *  mode "graceful": leave the endpoint set and SIGQUIT at once, as Kubernetes does
   *  both concurrently when a pod is deleted; nginx finishes in-flight requests. */
  async remove(pod, mode) {
    if (!this.ready.delete(pod.name)) return;
    this.events.emit(mode === 'kill' ? 'pod-killed' : 'pod-terminating', { pod: pod.name });
    this.changed();
    if (mode === 'kill') await this.group.killGroup(pod.child, 'SIGKILL');
    else {
      this.group.killSafe(pod.child, 'SIGQUIT');
      await pod.child.exited;
    }
  }

  random() {
    const pods = [...this.ready.values()];
    return pods[Math.floor(Math.random() * pods.length)];
  }

  byName(name) {
    return this.ready.get(name);
  }

  newest() {
    return [...this.ready.values()].at(-1);
  }

  oldest() {
    return [...this.ready.values()][0];
  }

  async scaleTo(n, mode = 'graceful') {
    const adds = [];
    while (this.ready.size + adds.length < n) adds.push(this.add());
    await Promise.all(adds);
    const removes = [];
    while (this.ready.size > n) removes.push(this.remove(this.newest(), mode));
    await Promise.all(removes);
  }

  /** Teardown: pods exiting now are not endpoint changes anyone should act on. */
  shutdown() {
    this.stopping = true;
    this.listeners = [];
  }

  changed() {
    const eps = this.endpoints();
    for (const fn of this.listeners) fn(eps);
  }
}
