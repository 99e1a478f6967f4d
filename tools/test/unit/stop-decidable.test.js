// No stop before every blocking test can decide (issue 59, item 4). The runner's interim
// "stop: clearly passing" (run/sequence.js → compare/sequential.js) needs every blocking
// test of the cell to be decidable; a failover test still short of kills keeps the runner
// adding pairs, and the gate's re-look of a cell short of its budget applies the same rule.
// Held out: a pod-kill duet whose failover is ×2 slower stopped after 4 pairs "clearly
// passing" (p99 ×1.00) and passed; run to its 8 pairs, the same cell is a regression.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { gateCells } from '../../src/compare/gate.js';
import { interimLook } from '../../src/compare/sequential.js';
import { applyDefaults } from '../../src/config/defaults.js';
import { sequence } from '../../src/run/sequence.js';
import { simulateFailoverPr } from '../helpers/failover-sim.js';
import { scratchDir } from '../helpers/scratch.js';

const gate = applyDefaults({ controllers: {}, scenarios: {}, matrices: {} }).gate;
const design = { minPairs: 3, maxPairs: 8 };

// n pairs of a pod-kill duet, one kill a pair hitting both sides, the head exposed ×2 longer; p99 the same on
// both sides (clearly within its threshold). Sequential 3…8, as the runner records it.
function podKill(n) {
  const [c] = simulateFailoverPr(13, { active: 1, q: 1, kills: 1, headFactor: 2, pairs: n }).filter((x) =>
    x.cell.endsWith('/pod-kill'),
  );
  const seq = (r) => ({ ...r, meta: { ...r.meta, sequential: design, repetition: r.meta.pair } });
  return {
    cell: c.cell,
    base: c.base.map(seq),
    head: c.head.map((r, i) => seq({ ...r, percentiles: c.base[i].percentiles })),
  };
}

test('no stop before every blocking test can decide: a failover test short of kills keeps the interim look going', () => {
  const { base, head } = podKill(4);
  const look = interimLook({ base, head }, gate);
  // Before: { decision: 'stop-pass', why: 'p99 ×1.00, clearly within 10%' }.
  assert.equal(look.decision, 'continue');
  assert.match(
    look.why,
    /cannot decide yet: failover exposure ×\d\.\d\d \(too few kills tell the sides apart: 4 hit both, 0 one side/,
  );
  // Run on, the same cell decides: red.
  const full = podKill(8);
  assert.equal(gateCells([full], gate, { mode: 'paired' }).cells[0].verdict, 'regression');
});

test('no stop before every blocking test can decide: the runner adds the pair the failover test needs', () => {
  const runDir = scratchDir('tg-stop-decidable-');
  const cells = podKill(4);
  const key = 'haproxy-ingress/default/pod-kill';
  // Pairs 1–4 ran: their results where the runner writes them.
  for (const side of ['base', 'head'])
    cells[side].forEach((r, i) => {
      const dir = join(runDir, side, key, `rep-${i + 1}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'result.json'), JSON.stringify(r));
    });
  const read = (files) => files.map((f) => JSON.parse(readFileSync(f, 'utf8')));
  const interim = ({ base, head }) => interimLook({ base: read(base), head: read(head) }, gate);
  const lines = [];
  const looks = sequence({ runDir, stages: { interim }, log: (l) => lines.push(l) });
  const cell = {
    key,
    controllerName: 'haproxy-ingress',
    tuningName: 'default',
    scenarioName: 'pod-kill',
    repetition: 5,
    concurrent: { name: 'haproxy-ingress' },
    sequential: design,
    optional: true,
  };
  // Before: false — "decided after 4 pairs (p99 ×1.00, clearly within 10%) — 4 optional pairs skipped".
  assert.equal(looks.wanted(cell), true, lines.join('\n'));
  assert.match(lines.join('\n'), /not decided after 4 pairs \(cannot decide yet: failover exposure/);
});

test("no stop before every blocking test can decide: the gate's re-look of a cell stopped short applies the same rule", () => {
  const [v] = gateCells([podKill(4)], gate, { mode: 'paired' }).cells;
  assert.equal(v.sequential.stopped, true);
  assert.equal(v.verdict, 'inconclusive');
  assert.match(
    v.reasons.join(' '),
    /its duet stopped after 4 of ≤ 8 pairs, which do not clearly pass it \(cannot decide yet: failover exposure/,
  );
});
