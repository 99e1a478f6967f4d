// One cell's verdict as users read it: the tests gate.js decided, turned into metrics,
// reasons and warnings, and the summary numbers of each side.
import { classTotals, ERROR_GROUPS } from './errors.js';
import { median, msText, sig } from '../numbers.js';
import { samplesNeeded } from '../result/quantiles.js';
import { pValue as fmtP } from '../numbers.js';

export function finish(p, tests, gate) {
  const out = p.out;
  if (!p.valid) return;
  const latency = tests
    .filter((t) => t.kind === 'latency' || t.kind === 'failover')
    .map(({ minPWorse, minPBetter, ...t }) => publicTest(t));
  const groups = tests.filter((t) => t.kind === 'errors');
  out.metrics.push(...latency, errorsMetric(p, groups, gate));
  const blockingBad = out.metrics.filter((m) => m.blocking && m.status === 'regression');
  if (blockingBad.length) {
    out.verdict = 'regression';
    out.reasons.push(...blockingBad.map(describe));
  } else if (out.metrics.some((m) => m.blocking && m.status === 'improvement')) {
    out.verdict = 'improvement';
  }
  const advisory = out.metrics.filter(
    (m) => (!m.blocking && m.status === 'regression') || m.status === 'unreliable-regression',
  );
  out.warnings.push(
    ...advisory.map(
      (m) =>
        `${describe(m)}${m.status.startsWith('unreliable') ? ` (${m.why ?? 'too few tail samples to gate on'})` : ' (advisory)'}`,
    ),
  );
  // A failover test that could not decide says so (failover.js), unless no kill held anything up.
  for (const m of out.metrics.filter(
    (x) => x.why && x.status === 'undecided' && x.kills?.both + x.kills?.baseOnly + x.kills?.headOnly > 0,
  ))
    out.warnings.push(`${m.metric}: ${m.why}`);
}

export function publicTest(t) {
  const {
    owner,
    kind,
    minP,
    se,
    pWorse,
    pBetter,
    adjPWorse,
    adjPBetter,
    familyWorse,
    familyBetter,
    overallP,
    second,
    ...rest
  } = t;
  const out = {
    ...rest,
    p: fmtP(pWorse),
    adjustedP: fmtP(adjPWorse),
    family: familyWorse,
    pBetter: fmtP(pBetter),
    adjustedPBetter: fmtP(adjPBetter),
  };
  // The fresh runs' own numbers: a confirmed cell is shown by its confirmation (report/).
  if (second)
    out.confirmation = {
      runs: second.n,
      ratio: second.ratio,
      p: fmtP(second.pWorse),
      combinedP: fmtP(overallP),
      ...(second.ratioLow === undefined
        ? {}
        : { base: second.base, head: second.head, ratioLow: second.ratioLow, ratioHigh: second.ratioHigh }),
    };
  return out;
}

// The error groups of a cell as one metric (the report shows per class), plus the
// explicit zero-stays-zero rule, which is a policy, not a test.
function errorsMetric(p, groups, gate) {
  const totals = classTotals(p.base, p.head);
  const groupOf = (cls) => Object.keys(ERROR_GROUPS).find((g) => ERROR_GROUPS[g].includes(cls));
  const shown = groups.map(({ minPWorse, minPBetter, ...g }) => publicTest(g));
  const classes = totals.map((c) => {
    const g = shown.find((x) => x.group === groupOf(c.class));
    let status = g?.status ?? 'pass';
    if (gate.errors.zeroStaysZero && c.base === 0 && c.head > 0 && c.class !== 'dropped') status = 'regression';
    return { ...c, group: groupOf(c.class), status, p: g?.p ?? null };
  });
  const any = (s) => classes.some((c) => c.status === s) || shown.some((g) => g.status === s);
  return {
    metric: 'errors',
    blocking: gate.errors.blocking,
    status: any('regression') ? 'regression' : any('improvement') ? 'improvement' : 'pass',
    classes,
    groups: shown,
    base: p.out.base.errors,
    head: p.out.head.errors,
    baseRequests: p.out.base.requests,
    headRequests: p.out.head.requests,
  };
}

// "1 test", "3 tests": every count the comment and the verdict's texts print.
export const plural = (n, what) => `${n} ${what}${n === 1 ? '' : 's'}`;

const adjustedText = (t) => (t.look === 'pending' ? 'adjusted after confirmation' : `adjusted ${t.adjustedP}`);

const groupText = (g) =>
  `${g.group} ${g.base} → ${g.head} (p=${g.p}, ${adjustedText(g)} over ${plural(g.family, 'test')}${g.phi > 1 ? `, dispersion ${g.phi}` : ''})`;

export function describe(m) {
  if (m.group) return `errors: ${groupText(m)}`;
  if (m.metric === 'errors') {
    const bad = m.groups.filter((g) => g.status === 'regression').map(groupText);
    const zero = m.classes
      .filter((c) => c.status === 'regression' && !bad.some((b) => b.startsWith(c.group)))
      .map((c) => `${c.class} 0 → ${c.head} (zeroStaysZero)`);
    return `errors: ${[...bad, ...zero].join(', ')}`;
  }
  const pct = Math.round((m.intervalLevel ?? 0.9) * 100);
  const over = `${adjustedText(m)} over ${plural(m.family, 'test')}`;
  // A confirmed test is told by its fresh runs (the round that decided it), the first look
  // beside them.
  const c = m.confirmation;
  if (c?.ratioLow !== undefined)
    return `${m.metric}: ${msText(c.base)} → ${msText(c.head)} ${m.unit ?? 'ms'} on ${plural(c.runs, 'fresh run')} (×${sig(c.ratio)}, ${pct}% interval ×${sig(c.ratioLow)}–×${sig(c.ratioHigh)}; first look ×${sig(m.ratio)}; p=${m.p} then ${c.p}, ${over})`;
  // Three significant digits, as in the table; a test awaiting its confirmation round has
  // no adjusted p yet (its two-stage p is made with the fresh runs).
  return `${m.metric}: ${msText(m.base)} → ${msText(m.head)} ${m.unit ?? 'ms'} (×${sig(m.ratio)}, ${pct}% interval ×${sig(m.ratioLow)}–×${sig(m.ratioHigh)}; p=${m.p}, ${over})`;
}

export function summaryOf(reps) {
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
    p99_99Reliable: reps.reduce((a, r) => a + r.requests.total, 0) >= samplesNeeded('p99.99'),
    dropped: reps.reduce((a, r) => a + (r.load.droppedIterations ?? 0), 0),
  };
}

function sumClasses(reps) {
  const out = {};
  for (const r of reps) for (const [k, v] of Object.entries(r.errors.byClass)) if (v) out[k] = (out[k] ?? 0) + v;
  return out;
}
