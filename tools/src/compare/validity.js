// Was the load actually delivered and the data complete? A run that fails these
// can be neither a pass nor a regression: it is inconclusive, with the reason.
//
// One exception, because hiding it would hide the worst regressions: when only the
// head makes k6 drop iterations, that is coordinated omission — the system got slower
// — not missing data. Such a head run stays in the comparison and its dropped
// iterations are tested like errors (errors.js). The load generator itself is judged
// on the base: the same generator on the same machine, so if it cannot deliver the
// rate there, the setup is the bottleneck and the cell is inconclusive. Little's law
// (rate × slowest response vs the VUs k6 had) says which it looks like, in the note.
import { workloadDiff, workloadOf } from '../result/workload.js';
import { GATE_DEFAULTS } from '../config/defaults.js';
import { countProblems } from './whole-evidence.js';
import { engineProblems } from './engine-of-record.js';

const OK_K6_EXIT = new Set([0, 99]); // 99: a k6 threshold failed, the run itself is fine

/** The share of a duet's shared drops that voids its pair: the rule's, else config's default. */
export function sharedDropLimit(rule) {
  return rule.maxSharedDroppedRatio ?? GATE_DEFAULTS.validity.maxSharedDroppedRatio;
}

/**
 * -> { problems: [...], omission: null | {dropped, ratio}, shared: null | {dropped, ratio} }
 * for one run. side: 'base' | 'head'. sharedDrops: the run is one side of a duet pair whose
 * other side dropped exactly as many iterations — one k6 served both, so its drops are the
 * generator's and hit both alike: the pair stays a fair comparison unless they are so many
 * (maxSharedDroppedRatio) that the load itself was not what the scenario says.
 */
export function checkRun(rep, rule, side, { sharedDrops = false, heldByHead = false } = {}) {
  // A duet whose head alone could hold every VU of the one k6 (its rate × its mean
  // response ≥ VUs) while the base could not: the drops on both sides are the head's
  // omission. The base's load fell short because of the head — not evidence against it.
  if (heldByHead && rep.load.droppedIterations > 0) {
    if (side === 'base') return checkRun(rep, { ...rule, maxDroppedRatio: 1, minAchievedRatio: 0 }, 'base');
    const own = checkRun(rep, rule, 'head');
    if (own.omission) own.omission.heldByHead = true;
    return own;
  }
  if (sharedDrops && rep.load.droppedIterations > 0) {
    const ratio = rep.load.droppedRatio;
    const limit = sharedDropLimit(rule);
    const own = checkRun(rep, { ...rule, maxDroppedRatio: Math.max(rule.maxDroppedRatio, limit) }, 'base');
    const shared = { dropped: rep.load.droppedIterations, ratio, pair: rep.meta?.pair ?? null };
    return { ...own, shared: ratio <= limit ? shared : null };
  }
  // Its counts first: a run whose counts are not counts is no evidence (whole-evidence.js).
  const problems = countProblems(rep, side);
  if (problems.length) return { problems, omission: null, shared: null };
  const where = rep.source;
  // A head that made k6 drop iterations answered fewer requests *because* it is slow:
  // its dropped iterations count as attempts (and as errors, errors.js).
  const omitted = side === 'head' && rep.load.droppedRatio > rule.maxDroppedRatio ? rep.load.droppedIterations : 0;
  const attempts = rep.requests.total + omitted;
  if (attempts === 0) problems.push(`${where}: 0 requests measured`);
  else if (attempts < rule.minSamples)
    problems.push(
      `${where}: ${rep.requests.total} samples${omitted ? ` + ${omitted} dropped` : ''} < minSamples ${rule.minSamples}`,
    );
  const code = rep.load.k6ExitCode;
  if (code !== null && code !== undefined && !OK_K6_EXIT.has(code))
    problems.push(`${where}: k6 exited with code ${code}`);
  const short = undelivered(rep, rule);
  if (!short) return { problems, omission: null, shared: null };
  const cause = dropCause(rep);
  if (side === 'head' && rep.load.droppedRatio > rule.maxDroppedRatio)
    return {
      problems,
      omission: { dropped: rep.load.droppedIterations, ratio: rep.load.droppedRatio, cause },
      shared: null,
    };
  const why =
    cause === 'generator'
      ? `k6 fell behind with VUs free (rate × slowest response ≈ ${littleBound(rep)} < ${vusOf(rep)} VUs): the load generator or the machine is the bottleneck`
      : 'k6 could not deliver the rate even for the base';
  problems.push(`${where}: ${short}: ${why}`);
  return { problems, omission: null, shared: null };
}

function undelivered(rep, rule) {
  if (rep.load.droppedRatio > rule.maxDroppedRatio) {
    return `${rep.load.droppedIterations} dropped iterations (${pct(rep.load.droppedRatio)}) > ${pct(rule.maxDroppedRatio)}`;
  }
  const ratio = rep.load.achievedRatio;
  if (ratio !== null && ratio !== undefined && ratio < rule.minAchievedRatio) {
    return `achieved ${rep.load.achievedRate}/s of ${rep.load.targetRate}/s (${pct(ratio)} < ${pct(rule.minAchievedRatio)})`;
  }
  return null;
}

/** 'system' | 'generator' | 'unknown': could the system have held every VU at once? */
export function dropCause(rep) {
  const vus = vusOf(rep);
  const bound = littleBound(rep);
  if (!vus || bound === null) return 'unknown';
  return bound >= vus ? 'system' : 'generator';
}

// Little's law: requests in flight = arrival rate × time in the system (ms).
function little(rep, ms) {
  const rate = rep.load.targetRate;
  return rate && ms ? Math.round(rate * (ms / 1000)) : null;
}

// With the slowest response of the run: an upper bound on the VUs the system kept busy.
const littleBound = (rep) => little(rep, rep.percentiles?.max);

// With the mean response: the VUs a side kept busy on average. The duet judgement uses
// it, not the slowest response: a base with a dozen 10 s timeouts (its pods starved by a
// head capped at 50m CPU on the same node) has a slowest response as long as the head's,
// and the cell came out "k6 could not deliver the rate even for the base" again. Without
// a mean (older results, baselines): the slowest response, as before.
const inFlight = (rep) => little(rep, Number.isFinite(rep.meanMs) ? rep.meanMs : rep.percentiles?.max);

function vusOf(rep) {
  return rep.meta?.scenario?.vus ?? null;
}

/**
 * The duet pairs whose dropped iterations are shared: both sides of one concurrent pair
 * (meta.ab, the same meta.pair) with the same positive count — one k6 drove both.
 */
function* sharedDropPairs(base, head) {
  const key = (r) => (r.meta?.ab && Number.isInteger(r.meta?.pair) ? r.meta.pair : null);
  const heads = new Map(head.filter((r) => key(r) !== null).map((r) => [key(r), r]));
  for (const b of base) {
    const h = key(b) === null ? null : heads.get(key(b));
    if (h && b.load.droppedIterations > 0 && b.load.droppedIterations === h.load.droppedIterations) yield [b, h];
  }
}

/** The runs whose dropped iterations are their duet partner's too (both sides of a pair). */
export function sharedDropRuns(base, head) {
  return new Set([...sharedDropPairs(base, head)].flat());
}

/**
 * Both runs of every shared-drop pair the head caused: the head alone could keep all of
 * k6's VUs busy (Little's law on its own rate and slowest response), the base alone could
 * not. A ×5000 head made k6 drop 12-19% of iterations on both sides on kind and the cell
 * came out "inconclusive: k6 could not deliver the rate even for the base".
 */
export function headHeldRuns(base, head) {
  const held = [...sharedDropPairs(base, head)].filter(([b, h]) => {
    const vus = vusOf(h);
    const [hb, bb] = [inFlight(h), inFlight(b)];
    return vus && hb !== null && bb !== null && hb >= vus && bb < vus;
  });
  return new Set(held.flat());
}

/** Results of different cells, profiles, workloads or machines are not comparable. */
export function comparabilityProblems(base, head, { allowMachineMismatch = false, mode = 'paired' } = {}) {
  // Every run names its engine (engine-of-record.js), then every run measured one workload.
  const out = engineProblems(base, head);
  const changed = workloadChanges(base, head);
  if (changed.length)
    out.push({
      fatal: true,
      message:
        mode === 'baseline'
          ? `no comparable baseline: the workload changed (${changed.join('; ')}) — record a baseline for the new workload`
          : `base and head measured different workloads (${changed.join('; ')}): not like with like`,
    });
  const cellOf = (r) => {
    const parts = [r.meta?.controller?.name, r.meta?.tuning?.name, r.meta?.scenario?.name];
    return parts.every((x) => typeof x === 'string') ? parts.join('/') : null;
  };
  const cells = (reps) => new Set(reps.map(cellOf).filter(Boolean));
  const [b, h] = [cells(base), cells(head)];
  if (b.size > 1 || h.size > 1 || (b.size && h.size && [...b][0] !== [...h][0])) {
    out.push({
      fatal: true,
      message: `base and head are not the same cell (base: ${[...b].join(', ') || '?'}; head: ${[...h].join(', ') || '?'})`,
    });
  }
  const profiles = new Set([...base, ...head].map((r) => r.meta?.profile).filter(Boolean));
  if (profiles.size > 1)
    out.push({
      fatal: true,
      message: `profiles differ: ${[...profiles].join(' vs ')} (baselines are per runner class)`,
    });
  const prints = new Set([...base, ...head].map((r) => r.meta?.machine?.fingerprint).filter(Boolean));
  if (prints.size > 1 && !allowMachineMismatch) {
    out.push({
      fatal: false,
      message: `measured on different machines — ${machineFields(base, head)}: numbers from different hardware. Record baselines on this runner class (tailgate baseline update --results <this run>), compare as pairs on one runner (compare: paired), or pass --allow-machine-mismatch`,
    });
  }
  return out;
}

// Which of the fingerprint's fields differ (result/machine.js), base → head, by name.
const MACHINE_FIELDS = ['cpuModel', 'cpus', 'memoryGiB', 'arch'];
function machineFields(base, head) {
  const values = (reps, k) => [...new Set(reps.map((r) => r.meta?.machine?.[k]).filter((v) => v !== undefined))];
  const diffs = MACHINE_FIELDS.map((k) => [k, values(base, k), values(head, k)])
    .filter(([, b, h]) => b.join() !== h.join() || b.length > 1)
    .map(
      ([k, b, h]) =>
        `${k} ${b.map((v) => String(v).slice(0, 60)).join('/') || '?'} → ${h.map((v) => String(v).slice(0, 60)).join('/') || '?'}`,
    );
  return diffs.length ? diffs.join(', ') : 'their fingerprints differ';
}

// Every run against the first base run: base runs, head runs and confirmation rounds
// must all have measured the same load. Each field named once, with its values.
function workloadChanges(base, head) {
  const ref = base.map(workloadOf).find(Boolean);
  if (!ref) return [];
  const seen = new Set();
  for (const r of [...base, ...head]) for (const d of workloadDiff(ref, workloadOf(r))) seen.add(d);
  return [...seen];
}

function pct(x) {
  return `${(x * 100).toFixed(2)}%`;
}
