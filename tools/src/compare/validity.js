// Was the load actually delivered and the data complete? A run that fails these
// can be neither a pass nor a regression: it is inconclusive, with the reason.
const OK_K6_EXIT = new Set([0, 99]); // 99: a k6 threshold failed, the run itself is fine

export function validityProblems(rep, rule) {
  const out = [];
  const where = rep.source;
  if (rep.requests.total === 0) out.push(`${where}: 0 requests measured`);
  else if (rep.requests.total < rule.minSamples) out.push(`${where}: ${rep.requests.total} samples < minSamples ${rule.minSamples}`);
  if (rep.load.droppedRatio > rule.maxDroppedRatio) {
    out.push(`${where}: ${rep.load.droppedIterations} dropped iterations (${pct(rep.load.droppedRatio)}) > ${pct(rule.maxDroppedRatio)}: k6 could not deliver the rate`);
  }
  if (rep.load.achievedRatio !== null && rep.load.achievedRatio !== undefined && rep.load.achievedRatio < rule.minAchievedRatio) {
    out.push(`${where}: achieved ${rep.load.achievedRate}/s of ${rep.load.targetRate}/s (${pct(rep.load.achievedRatio)} < ${pct(rule.minAchievedRatio)})`);
  }
  const code = rep.load.k6ExitCode;
  if (code !== null && code !== undefined && !OK_K6_EXIT.has(code)) out.push(`${where}: k6 exited with code ${code}`);
  return out;
}

/** Results measured on different profiles or machines are not comparable. */
export function comparabilityProblems(base, head, { allowMachineMismatch = false } = {}) {
  const out = [];
  const profiles = new Set([...base, ...head].map((r) => r.meta?.profile).filter(Boolean));
  if (profiles.size > 1) out.push({ fatal: true, message: `profiles differ: ${[...profiles].join(' vs ')} (baselines are per runner class)` });
  const prints = new Set([...base, ...head].map((r) => r.meta?.machine?.fingerprint).filter(Boolean));
  if (prints.size > 1 && !allowMachineMismatch) {
    out.push({ fatal: false, message: `machine fingerprints differ (${[...prints].join(', ')}): numbers from different hardware; use paired mode, or --allow-machine-mismatch` });
  }
  return out;
}

function pct(x) {
  return `${(x * 100).toFixed(2)}%`;
}
