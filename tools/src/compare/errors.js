// Are there more errors of a class in head than in base, beyond chance?
// Exact conditional test: if both sides share one error rate, head's share of the
// errors of a class is Binomial(k_base + k_head, n_head / (n_base + n_head)).
import { ERROR_CLASSES } from '../ingest/classify.js';
import { binomialUpperTail } from './stats.js';

export function compareErrors(base, head, rule, { confidence = 0.95 } = {}) {
  const sum = (reps, f) => reps.reduce((a, r) => a + f(r), 0);
  const nb = sum(base, (r) => r.requests.total);
  const nh = sum(head, (r) => r.requests.total);
  const classes = [];
  for (const cls of ERROR_CLASSES) {
    const kb = sum(base, (r) => r.errors.byClass[cls] ?? 0);
    const kh = sum(head, (r) => r.errors.byClass[cls] ?? 0);
    if (kb === 0 && kh === 0) continue;
    const share = nh / (nb + nh);
    const p = binomialUpperTail(kh, kb + kh, share);
    const expected = (kb + kh) * share;
    const extra = kh - expected;
    let status = 'pass';
    if (rule.zeroStaysZero && kb === 0 && kh > 0) status = 'regression';
    else if (p < 1 - confidence && extra >= rule.minExtra) status = 'regression';
    else if (binomialUpperTail(kb, kb + kh, 1 - share) < 1 - confidence && -extra >= rule.minExtra) status = 'improvement';
    classes.push({ class: cls, base: kb, head: kh, baseRate: kb / Math.max(1, nb), headRate: kh / Math.max(1, nh), p: round(p), status });
  }
  const status = classes.some((c) => c.status === 'regression') ? 'regression' : classes.some((c) => c.status === 'improvement') ? 'improvement' : 'pass';
  return {
    metric: 'errors', blocking: rule.blocking, status, classes,
    base: sum(base, (r) => r.errors.total), head: sum(head, (r) => r.errors.total), baseRequests: nb, headRequests: nh,
  };
}

function round(x) {
  return Number(x.toPrecision(4));
}
