// What the numbers were measured on. Results of different fingerprints are never
// compared silently: the fingerprint hashes what changes latency, not hostnames.
import { createHash } from 'node:crypto';
import os from 'node:os';

export function machineInfo() {
  const cpus = os.cpus();
  const info = {
    cpuModel: cpus[0]?.model?.trim() ?? 'unknown',
    cpus: cpus.length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    kernel: os.release().split('-')[0],
    arch: os.arch(),
  };
  info.fingerprint = createHash('sha256')
    .update(JSON.stringify([info.cpuModel, info.cpus, info.memoryGiB, info.arch]))
    .digest('hex')
    .slice(0, 12);
  return info;
}
