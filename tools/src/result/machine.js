// What the numbers were measured on. Results of different fingerprints are never
// compared silently: the fingerprint hashes what changes latency, not hostnames.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';

/**
 * The class of this machine, as a profile's `machine` names one: CPUs the OS reports and
 * the OS release (ID-VERSION_ID of /etc/os-release: "debian-12"; "unknown" without one).
 */
let thisClass;
export function machineClass({ osRelease = '/etc/os-release' } = {}) {
  // Every config load asks (a local matrix's default profile): read the file once.
  if (osRelease === '/etc/os-release') return (thisClass ??= readClass(osRelease));
  return readClass(osRelease);
}

function readClass(osRelease) {
  let text = '';
  try {
    text = readFileSync(osRelease, 'utf8').slice(0, 8192);
  } catch {
    // not Linux, or no os-release: a class no profile names
  }
  const field = (k) => new RegExp(`^${k}="?([A-Za-z0-9._-]{1,20})"?$`, 'm').exec(text)?.[1]?.toLowerCase();
  const id = field('ID');
  const version = field('VERSION_ID');
  return { cpus: os.cpus().length, os: id && version ? `${id}-${version}` : 'unknown' };
}

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
