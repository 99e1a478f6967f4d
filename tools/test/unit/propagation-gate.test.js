// The route propagation gate (gate.propagation, compare/propagation.js) as a user
// experiences it: per PR, with the noise route edits have (helpers/route-sim.js), gated
// as the PR workflow gates a duet (pairs, Holm over every blocking test, the
// confirmation round). Seeded: the same figures every run.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gateCells } from '../../src/compare/gate.js';
import { applyDefaults } from '../../src/config/defaults.js';
import { simulateRoutePr } from '../helpers/route-sim.js';
import { renderMarkdown } from '../../src/report/markdown.js';

const gate = applyDefaults({ controllers: {}, scenarios: {}, matrices: {} }).gate;
const pct = (x) => `${(100 * x).toFixed(1)}%`;

function verdict(seed, opts) {
  const inputs = simulateRoutePr(seed, opts);
  let res = gateCells(inputs, gate, { mode: 'paired' });
  if (res.confirm.length) {
    const fresh = simulateRoutePr(seed + 1, opts).map((c) => ({
      ...c,
      base: c.base.map((x) => ({ ...x, meta: { ...x.meta, pair: x.meta.pair + 100 } })),
      head: c.head.map((x) => ({ ...x, meta: { ...x.meta, pair: x.meta.pair + 100 } })),
    }));
    res = gateCells(inputs, gate, { mode: 'paired', confirm: new Map(fresh.map((c) => [c.cell, c])) });
  }
  return res.cells[0];
}

function rate(n, opts, pred) {
  let k = 0;
  for (let s = 1; s <= n; s++) if (pred(verdict(s * 7919, opts))) k++;
  return k / n;
}

const red = (c) => c.verdict === 'regression';
const propagationRed = (c) =>
  c.metrics.some((m) => m.metric.startsWith('propagation') && m.blocking && m.status === 'regression');

test('propagation gate: a cell with route edits is tested on p50 and p90 (p99 needs 300 edits: advisory until then)', () => {
  const c = verdict(1, {});
  const names = c.metrics.map((m) => m.metric);
  for (const q of ['propagation p50', 'propagation p90', 'propagation p99']) assert.ok(names.includes(q), q);
  const p99 = c.metrics.find((m) => m.metric === 'propagation p99');
  assert.equal(p99.reliable, false);
  assert.equal(c.metrics.find((m) => m.metric === 'propagation p50').reliable, true);
  assert.equal(c.metrics.find((m) => m.metric === 'propagation p50').design, 'concurrent');
});

test('propagation gate: a cell without route edits has no propagation test (nothing missing)', () => {
  const [cell] = simulateRoutePr(3, {});
  const strip = (reps) => reps.map(({ routes, ...r }) => ({ ...r, routes: null }));
  const res = gateCells([{ ...cell, base: strip(cell.base), head: strip(cell.head) }], gate, { mode: 'paired' });
  assert.ok(!res.cells[0].metrics.some((m) => m.metric.startsWith('propagation')));
});

test('propagation gate simulation: no-op route PRs fail ≤ 5%; ×2 slower propagation is caught ≥ 80% (3 pairs × 20 edits)', () => {
  const noop = rate(200, {}, red);
  assert.ok(noop <= 0.05, `no-op route PRs failed ${pct(noop)}`);
  const x2 = rate(120, { slower: 2 }, propagationRed);
  assert.ok(x2 >= 0.8, `×2 caught ${pct(x2)}`);
  const x15 = rate(80, { slower: 1.5 }, propagationRed);
  const x2few = rate(80, { slower: 2, edits: 6 }, propagationRed);
  console.log(
    `# route PRs, 3 pairs × 20 edits: no-op ${pct(noop)} failed; ×2 caught ${pct(x2)}, ×1.5 ${pct(x15)}; with 6 edits per run ×2 ${pct(x2few)}`,
  );
});

test('propagation gate simulation: errors while routes change (a 503 on one edit in three, head only) are caught ≥ 80%', () => {
  const noop = rate(150, { errorsPerEdit: 0.05 }, red);
  assert.ok(noop <= 0.05, `no-op with background edit errors failed ${pct(noop)}`);
  const bad = rate(100, { headErrorsPerEdit: 0.33 }, (c) =>
    c.metrics.some(
      (m) => m.metric === 'errors' && m.classes.some((k) => k.class === 'route' && k.status === 'regression'),
    ),
  );
  assert.ok(bad >= 0.8, `caught ${pct(bad)}`);
  console.log(`# route edit errors: no-op ${pct(noop)} failed; 1 edit in 3 erroring (head) caught ${pct(bad)}`);
});

test('propagation gate: the PR comment shows the route cells (p50, p90 base → head, Δ, route errors) and the detail rows', () => {
  const res = gateCells(simulateRoutePr(5, { slower: 2, headErrorsPerEdit: 0.3 }), gate, { mode: 'paired' });
  const body = renderMarkdown({
    overall: res.cells[0].verdict,
    mode: 'paired',
    cells: res.cells,
    procedure: res.procedure,
  });
  assert.match(body, /\*\*Routes under load\*\*/);
  assert.match(
    body,
    // A Δ beyond the threshold that is not itself the regression carries its interval.
    /\| ❌ \| `traefik\/default\/routes` \| \d+ms → \d+ms \| \+[\d.]+%(?: \(90%: [+-][\d.]+…[+-][\d.]+%\))? \| \d+ms → \d+ms \| \+[\d.]+%(?: \(90%: [+-][\d.]+…[+-][\d.]+%\))? \| 0 → \d+ \|/,
  );
  assert.match(body, /\| propagation p50 \| \d+ms \| \d+ms \| ×/);
  // A PR without route cells has no route table.
  const plain = gateCells(
    simulateRoutePr(5, {}).map((c) => ({
      ...c,
      base: c.base.map((r) => ({ ...r, routes: null })),
      head: c.head.map((r) => ({ ...r, routes: null })),
    })),
    gate,
    { mode: 'paired' },
  );
  assert.doesNotMatch(
    renderMarkdown({ overall: 'pass', mode: 'paired', cells: plain.cells, procedure: plain.procedure }),
    /Routes under load/,
  );
});
