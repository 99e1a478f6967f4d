// A result records the workload it measured; compare refuses runs whose workloads
// differ, naming the fields. Held out: a head at a tenth of the rate, without the churn
// and for 60 s, paired against the base at full rate with churn, passed before.
import assert from 'node:assert/strict';
import { cpSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { applyDefaults } from '../../src/config/defaults.js';
import { gateCells } from '../../src/compare/gate.js';
import { resultRep, toReps } from '../../src/result/load.js';
import { buildBaseline } from '../../src/compare/baseline-doc.js';
import { workloadDiff, workloadOf, workloadRecord } from '../../src/result/workload.js';
import { runCli } from '../helpers/cli.js';
import { scratchDir } from '../helpers/scratch.js';

const ROOT = new URL('../../../', import.meta.url).pathname;
const BASE = join(ROOT, 'tools/test/fixtures/runs/base');
const gate = applyDefaults({ controllers: {}, scenarios: {}, matrices: {} }).gate;

function resultFiles(dir) {
  return readdirSync(dir, { recursive: true })
    .filter((f) => f.endsWith('result.json'))
    .map((f) => join(dir, f));
}

// The base run again, its metadata rewritten to a lighter workload.
function drifted(to) {
  const dir = scratchDir('tg-drift-');
  cpSync(BASE, join(dir, 'head'), { recursive: true });
  for (const f of resultFiles(join(dir, 'head'))) {
    const doc = JSON.parse(readFileSync(f, 'utf8'));
    doc.meta.scenario = { ...doc.meta.scenario, rate: 30, duration: '60s', faults: [] };
    writeFileSync(f, JSON.stringify(doc));
  }
  return join(dir, 'head', to ?? '');
}

test('workload: a paired head that measured a lighter load is refused, naming each field that changed (it passed before)', async () => {
  const head = drifted();
  const out = join(scratchDir('tg-drift-v-'), 'v.json');
  const r = await runCli(['compare', '--paired', '--base-results', BASE, '--head-results', head, '--out', out]);
  assert.equal(r.code, 3, r.out);
  const v = JSON.parse(readFileSync(out, 'utf8'));
  for (const c of v.cells) {
    assert.equal(c.verdict, 'inconclusive');
    const reason = c.reasons.find((x) => /measured different workloads/.test(x));
    assert.ok(reason, c.reasons.join('; '));
    assert.match(reason, /duration "?5s"? → "?60s"?/);
    assert.match(reason, /rate 300 → 30/);
    assert.match(reason, /faults \[\{"type":"churn".*\}\] → \[\]/);
  }
});

test('workload: against a baseline a changed workload is "no comparable baseline", never a pass', () => {
  const base = resultFiles(BASE).map((f) => resultRep(JSON.parse(readFileSync(f, 'utf8')), f));
  const head = resultFiles(drifted()).map((f) => resultRep(JSON.parse(readFileSync(f, 'utf8')), f));
  const cell = base[0].meta.controller.name;
  const pick = (reps) => reps.filter((r) => r.meta.controller.name === cell);
  const [v] = gateCells([{ cell: 'x', base: pick(base), head: pick(head) }], gate, { mode: 'baseline' }).cells;
  assert.equal(v.verdict, 'inconclusive');
  assert.ok(
    v.reasons.some((x) => /^no comparable baseline: the workload changed \(.*rate 300 → 30/.test(x)),
    v.reasons.join('; '),
  );
});

test('workload: a committed baseline document keeps its workload — a lighter run against it is refused (before, every baseline rep had an empty workload and it passed)', () => {
  const base = resultFiles(BASE).map((f) => resultRep(JSON.parse(readFileSync(f, 'utf8')), f));
  const head = resultFiles(drifted()).map((f) => resultRep(JSON.parse(readFileSync(f, 'utf8')), f));
  const cell = base[0].meta.controller.name;
  const pick = (reps) => reps.filter((r) => r.meta.controller.name === cell);
  const key = `${cell}/${base[0].meta.tuning.name}/${base[0].meta.scenario.name}`;
  const doc = buildBaseline({ cellKey: key, profile: base[0].meta.profile, reps: pick(base) });
  // As recorded now (provenance.workload), and as older baselines have it (the scenario only).
  const older = { ...doc, provenance: { ...doc.provenance, workload: undefined } };
  for (const d of [doc, older]) {
    const { reps } = toReps(JSON.parse(JSON.stringify(d)), 'baselines/x.json');
    const [v] = gateCells([{ cell: key, base: reps, head: pick(head) }], gate, { mode: 'baseline' }).cells;
    assert.equal(v.verdict, 'inconclusive', v.reasons.join('; '));
    assert.ok(v.reasons.some((x) => /^no comparable baseline: the workload changed \(.*rate 300 → 30/.test(x)));
    const same = gateCells([{ cell: key, base: reps, head: pick(base) }], gate, { mode: 'baseline' }).cells[0];
    assert.ok(!same.reasons.some((x) => /workload changed/.test(x)), 'the same workload compares');
  }
});

test('workload: a run records it (scenario after defaults, k6 version, a digest of the k6 scripts); a field only one side records is not compared', () => {
  const w = workloadRecord({ name: 'steady', script: 'steady', rate: 500, duration: '45s', vus: 500 }, 'v1.8.1');
  assert.equal(w.k6, 'v1.8.1');
  assert.match(w.scripts, /^[0-9a-f]{64}$/);
  assert.equal(w.name, undefined, 'the name is not the load');
  const old = workloadOf({
    meta: { scenario: { name: 'steady', script: 'steady', rate: 500, duration: '45s', vus: 500 }, k6: 'v1.8.1' },
  });
  assert.deepEqual(workloadDiff(w, old), [], 'an older result (no digest) compares on what both record');
  assert.deepEqual(workloadDiff(w, { ...w, k6: 'v1.9.0', scripts: 'f'.repeat(64) }), [
    'k6 v1.8.1 → v1.9.0',
    `scripts ${w.scripts.slice(0, 12)} → ffffffffffff`,
  ]);
});
