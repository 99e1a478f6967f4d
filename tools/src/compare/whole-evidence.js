// Every blocking test on whole evidence: a test is a function of every run of its cell, or
// it says which run it could not read. A figure a test reads (a latency or propagation
// quantile, CPU per 1,000 requests, a kill's stall, a count) is checked where the test reads
// it; one that is missing, not a number or out of range on any run, either side, leaves the
// test untested and — blocking — its cell inconclusive, naming the run, the side and the
// figure (evidenceClosed). Before, such a run was dropped from the test in silence: gate.cpu
// tested only the cells where every run had a positive CPU figure, so one run without it
// took the cell out of the test and the cell passed; a baseline repetition without its p99
// was left out of the median.
import { median, sig } from '../numbers.js';

// Reasons are bounded (schemas/verdict.schema.json): the first few problems, then a count.
const SHOWN = 4;

/** Where a run is, in words: its side, its pair (a repetition where it has none) and its file. */
export function runName(r, side, i) {
  const at = Number.isInteger(r.meta?.pair) ? `pair ${r.meta.pair}` : `run ${i + 1}`;
  const src = String(r.source ?? '?');
  return `the ${side}'s ${at} (${src.length > 80 ? `…${src.slice(-79)}` : src})`;
}

/** Why a figure a test divides or takes the log of is not one, or null: a positive, finite number. */
export function positiveProblem(v) {
  if (v === undefined || v === null) return 'missing';
  if (typeof v !== 'number' || Number.isNaN(v)) return `not a number (${typeof v === 'string' ? 'text' : typeof v})`;
  if (!Number.isFinite(v) || v <= 0) return `out of range (${v}: a positive number)`;
  return null;
}

/** Why a count is not one, or null: a non-negative integer (missing counts too). */
export function countProblem(v) {
  if (v === undefined || v === null) return 'missing';
  if (typeof v !== 'number' || Number.isNaN(v)) return `not a number (${typeof v === 'string' ? 'text' : typeof v})`;
  if (!Number.isInteger(v) || v < 0) return `out of range (${v}: a count)`;
  return null;
}

/**
 * A reading more than `spread` times off the median of its side's other runs: not a reading
 * of the same data plane (a sampler that lost the cgroup, a counter that wrapped). One such
 * value would widen the pairs' spread until a real change passes. null: within, or no peers.
 */
export function outlierProblem(v, peers, spread) {
  const ok = peers.filter((x) => positiveProblem(x) === null);
  if (!ok.length) return null;
  const m = median(ok);
  const f = v / m;
  if (f <= spread && f >= 1 / spread) return null;
  return `out of range (${v}: ×${sig(f)} the median of its side's other runs, ${m}; more than ×${spread} apart is no reading of one data plane)`;
}

/**
 * The problems of one test's figure on every run of a cell: [] when whole. source: the
 * test's reader (latency.js LATENCY, propagation.js, cpu.js): value(r, name), field(name)
 * the figure's name in a result, and optionally range(v, peers) — peers the same figure on
 * the side's other runs.
 */
export function figureProblems(source, name, base, head) {
  const out = [];
  for (const [side, reps] of [
    ['base', base],
    ['head', head],
  ])
    reps.forEach((r, i) => {
      const v = source.value(r, name);
      const why =
        positiveProblem(v) ??
        source.range?.(
          v,
          reps.filter((x) => x !== r).map((x) => source.value(x, name)),
        );
      if (why) out.push(`${runName(r, side, i)}: ${source.field(name)} ${why}`);
    });
  return out;
}

/**
 * The counts a run's validity and its error tests read (compare/validity.js, errors.js), each
 * a count: [problems] naming the run, its side and the field. A baseline's repetitions are
 * free-form beyond their keys (schemas/baseline.schema.json), so a count can be anything.
 */
export function countProblems(r, side) {
  const fields = [
    ['requests.total', r.requests?.total, countProblem],
    ['errors.total', r.errors?.total, countProblem],
    ...Object.entries(r.errors?.byClass ?? {}).map(([k, v]) => [`errors.byClass.${k}`, v, countProblem]),
    // A number, not necessarily whole: the result schema's (k6's counter).
    ['load.droppedIterations', r.load?.droppedIterations, (v) => (v === 0 ? null : positiveProblem(v))],
    ...['errorsDuringEdits', 'timedOut', 'probes']
      .filter((k) => r.routes && r.routes[k] !== undefined)
      .map((k) => [`routes.${k}`, r.routes[k], countProblem]),
  ];
  const src = String(r.source ?? '?');
  const where = `the ${side}'s run (${src.length > 80 ? `…${src.slice(-79)}` : src})`;
  return fields.flatMap(([field, v, check]) => {
    const why = check(v);
    return why ? [`${where}: ${field} ${why}`] : [];
  });
}

/**
 * Each kill's figures on each side of a duet's pairs (compare/failover.js): its stall, and
 * where listed its exposure and counts — [problems] naming the pair, the kill, the side and
 * the field. killsOf: a run's kills in schedule order.
 */
export function killProblems(pairs, killsOf) {
  const atLeast0 = (v) => (v === 0 ? null : positiveProblem(v));
  const optional = (check) => (v) => (v === undefined ? null : check(v));
  const fields = [
    ['stallMs', atLeast0],
    ['exposureMs', optional(atLeast0)],
    ['heldUp', optional(countProblem)],
    ['errors', optional(countProblem)],
  ];
  const out = [];
  pairs.forEach((p, i) => {
    for (const side of ['base', 'head'])
      killsOf(p[side]).forEach((a, k) => {
        for (const [field, check] of fields) {
          const why = check(a[field]);
          if (why) out.push(`pair ${p.pair ?? i + 1}, kill ${k + 1}: the ${side}'s ${field} ${why}`);
        }
      });
  });
  return out;
}

/** "a; b; c; d; and 3 more" */
export function listed(problems) {
  const more = problems.length - SHOWN;
  return problems.slice(0, SHOWN).join('; ') + (more > 0 ? `; and ${more} more` : '');
}

/**
 * gate.js: each test its cell owed but could not run on whole evidence (t.broken: the
 * problems) — blocking, the cell is inconclusive, named (a regression found elsewhere stands,
 * this said beside it); advisory, a warning.
 */
export function evidenceClosed(p, tests) {
  if (!p.valid) return;
  for (const t of tests.filter((x) => x.broken?.length)) {
    const text = `${t.metric} not tested: its evidence is not whole — ${listed(t.broken)}`;
    if (!t.blocking || p.out.verdict === 'regression') {
      p.out.warnings.push(t.blocking ? text : `${text} (advisory)`);
      continue;
    }
    p.out.verdict = 'inconclusive';
    p.out.reasons.push(`${text} (a blocking test is a function of every run, or it decides nothing)`);
  }
}
