// Cross-talk in a duet: both sides share the node, so a side that burns more CPU per
// request slows the other too, and the pair's ratio understates how far apart they are
// (docs/duet.md). Read from each side's own cgroups (result.resources).
export const CROSS_TALK_RATIO = 1.25;

/** The sides' median CPU per 1,000 requests when every repetition is a duet's, else null. */
export function duetCpu(base, head) {
  if (![...base, ...head].every((r) => r.meta?.ab)) return null;
  const cpu = (reps) => {
    const xs = reps.map((r) => r.resources?.cpuPer1kRequests).filter((x) => Number.isFinite(x) && x > 0);
    return xs.length === reps.length && xs.length ? xs.sort((a, b) => a - b)[xs.length >> 1] : null;
  };
  const [b, h] = [cpu(base), cpu(head)];
  return b === null || h === null ? null : { cpuRatio: Number((h / b).toFixed(2)), baseCpuPer1k: b, headCpuPer1k: h };
}
