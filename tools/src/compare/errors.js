// Are there more errors in head than in base, beyond noise?
//
// Errors are counted per class (the classes the field reports count) but tested per
// group of classes that share a cause: 5xx from the proxy, transport failures, timeouts,
// 4xx — and iterations k6 had to drop because the system held every VU (coordinated
// omission: a request the user would have sent and not been served). Fewer tests per
// cell means less multiplicity to pay for.
//
// The unit of variation is the run, not the request: errors come in bursts tied to
// when a pod died relative to the traffic, so per-run counts vary more than Poisson
// (overdispersion). A quasi-Poisson model takes that from the runs themselves: the
// dispersion φ = Pearson χ² / df across a side's runs, moderated across the cells of the
// comparison, never below 1. The test is the exact conditional binomial (if both sides
// had one rate, head's share of the errors is Binomial(K, n_head / n)) on counts divided
// by φ — the effective number of independent errors.
import { ERROR_CLASSES } from '../result/error-classes.js';
import { binomialUpperTail, tSf } from './stats.js';
import { moderate } from './noise.js';
import { round } from '../numbers.js';

export const ERROR_GROUPS = Object.freeze({
  '5xx': ['http502', 'http503', 'http504', 'http5xx'],
  transport: ['refused', 'reset', 'transport'],
  timeout: ['timeout'],
  '4xx': ['http4xx'],
  dropped: ['dropped'],
  // Route edits (ingest/route-cost.js): answers that were neither the old nor the new
  // behaviour while the data plane followed an edit, and edits it never followed in time.
  // Their denominator is the probes that watched the edits, not the load's requests.
  route: ['route'],
});

function countOf(r, cls) {
  if (cls === 'dropped') return r.load?.droppedIterations ?? 0;
  if (cls === 'route') return (r.routes?.errorsDuringEdits ?? 0) + (r.routes?.timedOut ?? 0);
  return r.errors.byClass[cls] ?? 0;
}
const attempts = (r, group) =>
  group === 'route'
    ? Math.max(r.routes?.probes ?? 0, countOf(r, 'route'))
    : r.requests.total + (r.load?.droppedIterations ?? 0);
const sum = (xs) => xs.reduce((a, b) => a + b, 0);

/** Per-class totals for display: [{class, base, head}] of classes seen on either side. */
export function classTotals(base, head) {
  const out = [];
  for (const cls of [...ERROR_CLASSES, 'dropped', 'route']) {
    const b = sum(base.map((r) => countOf(r, cls)));
    const h = sum(head.map((r) => countOf(r, cls)));
    if (b || h) out.push({ class: cls, base: b, head: h });
  }
  return out;
}

/** The raw evidence of one cell about one error group. */
export function errorEvidence(group, base, head) {
  const classes = ERROR_GROUPS[group];
  const k = (r) => sum(classes.map((c) => countOf(r, c)));
  const side = (reps) => ({ k: reps.map(k), n: reps.map((r) => attempts(r, group)) });
  const b = side(base);
  const h = side(head);
  const kb = sum(b.k);
  const kh = sum(h.k);
  let chi2 = 0;
  let df = 0;
  for (const s of [b, h]) {
    const rate = sum(s.k) / Math.max(1, sum(s.n));
    if (rate === 0 || s.k.length < 2) continue;
    s.k.forEach((ki, i) => {
      chi2 += (ki - s.n[i] * rate) ** 2 / (s.n[i] * rate);
    });
    df += s.k.length - 1;
  }
  return {
    metric: `errors:${group}`,
    group,
    classes,
    base: kb,
    head: kh,
    baseRequests: sum(b.n),
    headRequests: sum(h.n),
    ownVar: df ? chi2 / df : null,
    ownDf: df,
    testable: kb + kh > 0,
  };
}

/**
 * One-sided p-values (worse, better) given the dispersion φ and its degrees of
 * freedom. φ is itself estimated from a few runs; the score statistic divided by √φ
 * follows Student's t with φ's df, so the larger of that and the exact test counts.
 */
export function errorTest(ev, phi, df = 0) {
  const share = ev.headRequests / Math.max(1, ev.headRequests + ev.baseRequests);
  const eff = (x) => x / phi;
  const total = eff(ev.base + ev.head);
  const k = ev.base + ev.head;
  const expected = k * share;
  const score = (ev.head - expected) / Math.sqrt(phi * k * share * (1 - share));
  const withT = (exact, z) => (df > 0 && k > 0 ? Math.max(exact, tSf(z, df)) : exact);
  return {
    phi,
    extra: ev.head - expected,
    rateRatio: ev.base ? ev.head / ev.headRequests / (ev.base / ev.baseRequests) : ev.head ? Infinity : 1,
    pWorse: withT(tail(eff(ev.head), total, share), score),
    pBetter: withT(tail(eff(ev.base), total, 1 - share), -score),
  };
}

// Binomial upper tail for non-integer (dispersion-scaled) counts: the conservative
// rounding — fewer successes out of more trials — never makes a p-value smaller.
function tail(k, n, p) {
  return binomialUpperTail(Math.floor(k + 1e-9), Math.ceil(n - 1e-9), p);
}

/**
 * The error tests of every valid cell (gate.js's `live`), one per group, with φ moderated
 * across the cells: the evidence the gate's Holm family decides on.
 */
export function errorTests(live, gate) {
  const out = [];
  for (const group of Object.keys(ERROR_GROUPS)) {
    const evs = live.map((p) => ({ owner: p, ev: errorEvidence(group, p.base, p.head) }));
    const noise = moderate(evs.map((e) => e.ev));
    evs.forEach((e, i) => {
      if (!e.ev.testable) return;
      const phi = Math.max(1, noise[i].var ?? 1);
      const r = errorTest(e.ev, phi, noise[i].var > 1 ? noise[i].df : 0);
      const share = e.ev.headRequests / Math.max(1, e.ev.headRequests + e.ev.baseRequests);
      const eff = Math.floor((e.ev.base + e.ev.head) / phi + 1e-9);
      out.push({
        owner: e.owner,
        kind: 'errors',
        metric: e.ev.metric,
        group,
        classes: e.ev.classes,
        blocking: gate.errors.blocking,
        reliable: true,
        minExtra: gate.errors.minExtra,
        base: e.ev.base,
        head: e.ev.head,
        baseRequests: e.ev.baseRequests,
        headRequests: e.ev.headRequests,
        phi: round(phi, 3),
        extra: round(r.extra, 2),
        rateRatio: Number.isFinite(r.rateRatio) ? round(r.rateRatio, 3) : null,
        pWorse: r.pWorse,
        pBetter: r.pBetter,
        // The smallest p-value these totals could ever give (all errors on one side):
        // a test that cannot reach α cannot fail, so it costs the family nothing (Tarone).
        minPWorse: share ** eff,
        minPBetter: (1 - share) ** eff,
      });
    });
  }
  return out;
}
