// The data plane's CPU per 1,000 requests as a gated metric (gate.cpu): what a change costs,
// for a team that pays for its data plane. Each side's own pod cgroups (result.resources,
// run/runner.js), so a duet's head and base are read apart. Tested as a latency quantile is
// (latency.js: the log ratio per pair, noise moderated across the cells, Holm over the PR),
// one member of the family when blocking — advisory by default, so it warns, never fails.
//
// CPU per request varies far less than a tail quantile: 3 A/A duet pairs of Traefik on kind
// (issue 60) read 0.62–0.67 s per 1,000 requests on one side, a few percent. The latency
// priors (assumedRunCv 0.25, assumedDuetCv 0.19) would hide a ×1.3 cost behind a p99's
// noise, so a lone cell leans on ASSUMED_CPU_CV instead, still twice what was measured.
export const CPU_METRIC = 'cpu';
export const ASSUMED_CPU_CV = 0.1;

export const CPU = Object.freeze({
  metric: () => CPU_METRIC,
  value: (r) => r.resources?.cpuPer1kRequests,
  // No sampling interval: the cgroup's counter is not a sample of requests.
  interval: () => null,
  enough: () => true,
});

const measured = (r) => Number.isFinite(r.resources?.cpuPer1kRequests) && r.resources.cpuPer1kRequests > 0;

/** A cell is tested for CPU when every run of both sides has its CPU per 1,000 requests. */
export function hasCpu(p) {
  return p.base.length > 0 && p.head.length > 0 && [...p.base, ...p.head].every(measured);
}

/** The gate's rules with CPU's own assumed noise, for the CPU tests alone. */
export function cpuNoiseRules(gate) {
  return { ...gate, assumedRunCv: ASSUMED_CPU_CV, assumedDuetCv: ASSUMED_CPU_CV, assumedFaultDuetCv: ASSUMED_CPU_CV };
}

/** Its tests say their unit (seconds of CPU per 1,000 requests), not a latency's ms. */
export const withCpuUnit = (tests) => tests.map((t) => Object.assign(t, { unit: 's/1k req' }));
