// One cell's verdict from base and head repetitions under the gate policy.
import { parseDuration, parsePercent } from '../config/units.js';
import { compareErrors } from './errors.js';
import { median } from './stats.js';
import { compareQuantile } from './latency.js';
import { comparabilityProblems, validityProblems } from './validity.js';

export const VERDICTS = ['pass', 'improvement', 'regression', 'inconclusive', 'infra-error', 'no-baseline'];

export function compareCell({ cell, base, head, gate, allowMachineMismatch = false }) {
  const out = { cell, verdict: 'pass', reasons: [], metrics: [], baseReps: base.length, headReps: head.length };
  const invalid = [...base, ...head].flatMap((r) => validityProblems(r, gate.validity));
  const incomparable = comparabilityProblems(base, head, { allowMachineMismatch });
  out.head = summaryOf(head);
  out.base = summaryOf(base);
  if (invalid.length || incomparable.length) {
    out.verdict = 'inconclusive';
    out.reasons.push(...invalid, ...incomparable.map((p) => p.message));
    return out;
  }
  const opts = { confidence: gate.confidence, assumedRunCv: gate.assumedRunCv };
  for (const [q, rule] of Object.entries(gate.latency)) {
    const r = { threshold: parsePercent(rule.threshold), floorMs: parseDuration(rule.floor), blocking: rule.blocking };
    out.metrics.push(compareQuantile(q, base, head, r, opts));
  }
  out.metrics.push(compareErrors(base, head, gate.errors, opts));
  const blockingRegressions = out.metrics.filter((m) => m.blocking && m.status === 'regression');
  const advisory = out.metrics.filter((m) => (!m.blocking && m.status === 'regression') || m.status === 'unreliable-regression');
  if (blockingRegressions.length) {
    out.verdict = 'regression';
    out.reasons.push(...blockingRegressions.map(describe));
  } else if (out.metrics.some((m) => m.blocking && m.status === 'improvement')) {
    out.verdict = 'improvement';
  }
  out.warnings = advisory.map((m) => `${describe(m)}${m.status.startsWith('unreliable') ? ' (too few tail samples to gate on)' : ' (advisory)'}`);
  return out;
}

function describe(m) {
  if (m.metric === 'errors') {
    return `errors: ${m.classes.filter((c) => c.status === 'regression').map((c) => `${c.class} ${c.base} → ${c.head} (p=${c.p})`).join(', ')}`;
  }
  return `${m.metric}: ${m.base.toFixed(3)} → ${m.head.toFixed(3)} ms (x${m.ratio}, 95% interval x${m.ratioLow}..x${m.ratioHigh})`;
}

function summaryOf(reps) {
  if (!reps.length) return null;
  const med = (f) => median(reps.map(f));
  return {
    reps: reps.length,
    requests: reps.reduce((a, r) => a + r.requests.total, 0),
    errors: reps.reduce((a, r) => a + r.errors.total, 0),
    errorsByClass: sumClasses(reps),
    p50: med((r) => r.percentiles.p50),
    p99: med((r) => r.percentiles.p99),
    'p99.99': med((r) => r.percentiles['p99.99']),
    p99_99Reliable: reps.every((r) => r.intervals?.['p99.99']?.reliable),
    dropped: reps.reduce((a, r) => a + (r.load.droppedIterations ?? 0), 0),
  };
}

function sumClasses(reps) {
  const out = {};
  for (const r of reps) for (const [k, v] of Object.entries(r.errors.byClass)) if (v) out[k] = (out[k] ?? 0) + v;
  return out;
}
