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
//
// Its evidence is whole or it is not tested (whole-evidence.js): a run without its figure,
// or with 0, a negative number, null or text, leaves a blocking CPU test inconclusive, and so
// does a reading more than CPU_READING_SPREAD times off its side's other runs — issue 60
// read 0.62–0.67 s within a side; one reading of 0.0001 among them spread the pairs until a
// ×1.36 change passed.
import { outlierProblem } from './whole-evidence.js';

export const CPU_METRIC = 'cpu';
export const ASSUMED_CPU_CV = 0.1;
export const CPU_READING_SPREAD = 10;

export const CPU = Object.freeze({
  metric: () => CPU_METRIC,
  field: () => 'resources.cpuPer1kRequests',
  value: (r) => r.resources?.cpuPer1kRequests,
  range: (v, peers) => outlierProblem(v, peers, CPU_READING_SPREAD),
  // No sampling interval: the cgroup's counter is not a sample of requests.
  interval: () => null,
  enough: () => true,
});

/**
 * A cell owes a CPU test when the rule blocks (the user asked the gate to decide on CPU:
 * no figure is no pass), or when both sides measured CPU at all (a run of each carries
 * `resources`): advisory against baselines, which keep none, there is nothing to test. An
 * owed test whose figures are not whole is not made (whole-evidence.js).
 */
export function hasCpu(p, rule = {}) {
  if (!p.base.length || !p.head.length) return false;
  const some = (reps) => reps.some((r) => r.resources !== undefined && r.resources !== null);
  return Boolean(rule.blocking) || (some(p.base) && some(p.head));
}

/** The gate's rules with CPU's own assumed noise, for the CPU tests alone. */
export function cpuNoiseRules(gate) {
  return { ...gate, assumedRunCv: ASSUMED_CPU_CV, assumedDuetCv: ASSUMED_CPU_CV, assumedFaultDuetCv: ASSUMED_CPU_CV };
}

/** Its tests say their unit (seconds of CPU per 1,000 requests), not a latency's ms. */
export const withCpuUnit = (tests) => tests.map((t) => Object.assign(t, { unit: 's/1k req' }));
