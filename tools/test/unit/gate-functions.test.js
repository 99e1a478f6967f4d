// The gate as functions (issue 54, item 4): compare takes its options as values and hands
// back the verdict, report takes that verdict as a value, both print through the writer
// they are given — no module swaps the console, and the matrix is planned once.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { verdict } from '../../src/cli/compare.js';
import { reportVerdict } from '../../src/cli/report.js';
import { compareRequest } from '../../src/cli/gate.js';
import { typed } from '../helpers/compare-request.js';
import { withJson } from '../../src/cli/json-out.js';
import { parseBench } from '../../src/config/load.js';
import { planMatrix } from '../../src/plan/plan.js';
import { planOfRecord } from '../../src/plan/of-record.js';
import { SRC, modules } from '../helpers/stages.js';
import { scratchDir } from '../helpers/scratch.js';
import { localBench } from '../helpers/local-bench.js';

const RUNS = new URL('../fixtures/runs/', import.meta.url).pathname;

// Whatever reaches the console during fn: a step that prints past its writer shows here.
async function consoleDuring(fn) {
  const saved = [console.log, console.error];
  const seen = [];
  console.log = console.error = (...a) => seen.push(a.join(' '));
  try {
    return { value: await fn(), seen };
  } finally {
    [console.log, console.error] = saved;
  }
}

test('no module under tools/src assigns console.log or console.error', () => {
  const swapping = modules()
    .filter((f) => /console\.(log|error)\s*=(?!=)/.test(readFileSync(f, 'utf8')))
    .map((f) => relative(SRC, f));
  assert.deepEqual(swapping, []);
});

test('compare → report as functions: the verdict passes as a value, every line through the writers given', async () => {
  const out = scratchDir('tg-gate-fn-');
  const request = compareRequest(
    { mode: 'paired', results: join(RUNS, 'head'), 'base-results': join(RUNS, 'base') },
    join(out, 'verdict.json'),
  );
  assert.equal(request.paired, true);
  assert.equal(request.baselines, 'baselines', "compare's own defaults come with the request");
  const lines = [];
  const { value: compared, seen } = await consoleDuring(async () => {
    const c = verdict(request, [], { log: (l) => lines.push(`log ${l}`), err: (l) => lines.push(`err ${l}`) });
    const r = reportVerdict(
      JSON.parse(JSON.stringify(c.doc)),
      { meta: join(out, 'meta.json'), confirmMatrix: join(out, 'confirm.json') },
      {},
      { log: (l) => lines.push(`report ${l}`) },
    );
    return { ...c, report: r };
  });
  assert.deepEqual(seen, [], 'nothing on the console');
  assert.equal(compared.code, 1);
  assert.equal(compared.doc.overall, 'regression');
  assert.match(lines[0], /^log .*regression/s, 'the table through compare’s log');
  assert.equal(compared.report.code, 1);
  assert.deepEqual(compared.report.meta, JSON.parse(readFileSync(join(out, 'meta.json'), 'utf8')));
  assert.deepEqual(compared.report.confirm, { include: [] });
  assert.equal(compared.report.comment, null, 'no markdown asked, none made');
  assert.ok(lines.some((l) => l.startsWith('report ')));
  // The request, where it is not compare's defaults: the flags a person would type.
  assert.deepEqual(typed(compareRequest({ mode: 'paired', results: 'r', 'base-results': 'b' }, 'v')), {
    paired: true,
    'base-results': 'b',
    'head-results': 'r',
    out: 'v',
    force: true,
  });
});

test('--json: lines for people go to err, the document once to log; no document, nothing on log', async () => {
  const got = [];
  const io = { log: (l) => got.push(['out', l]), err: (l) => got.push(['err', l]) };
  const code = await withJson(true, io, ({ log }) => (log('a table'), { code: 3, doc: { ok: 1 } }));
  assert.equal(code, 3);
  assert.deepEqual(got, [
    ['err', 'a table'],
    ['out', '{\n  "ok": 1\n}'],
  ]);
  got.length = 0;
  assert.equal(await withJson(true, io, () => ({ code: 2, doc: null })), 2);
  assert.deepEqual(got, []);
  assert.equal(await withJson(false, io, ({ log }) => (log('a table'), { code: 0, doc: {} })), 0);
  assert.deepEqual(got, [['out', 'a table']]);
});

test("the plan of record takes the head's plan made once (compare plans the matrix once)", () => {
  const cfg = parseBench(localBench('steady'));
  const plan = planMatrix(cfg, 'pr');
  assert.equal(planOfRecord(cfg, 'pr', { plan }).cells, plan.cells, 'no base: the plan given, not a new one');
  const base = { matrices: { pr: { controllers: ['nginx-reload'], scenarios: ['steady', 'pod-kill'] } } };
  const record = planOfRecord(cfg, 'pr', { base, plan });
  assert.deepEqual(
    record.cells.map((c) => c.id),
    planOfRecord(cfg, 'pr', { base }).cells.map((c) => c.id),
  );
  assert.equal(record.cells[0].scenario, plan.cells[0].scenario, "the head's cells are the plan's");
});
