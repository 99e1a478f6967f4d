// The end of a run (table, charts, verdict, comment) over every kind of cell outcome at
// once: a vanished cluster once crashed the summary ("Cannot read properties of null
// (reading 'cpuPer1kRequests')") and no table or chart was written for the cells that
// had been measured.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { afterRun } from '../../src/pipeline/after-run.js';
import { applyDefaults } from '../../src/config/defaults.js';
import { runCli } from '../helpers/cli.js';
import { makeRunDir } from '../helpers/run-dir.js';
import { scratchDir } from '../helpers/scratch.js';

const cellError = (dir, fields) => {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'cell-error.json'),
    JSON.stringify({ kind: 'tailgate.cell-error', cell: dir, message: 'it went wrong', details: [], ...fields }),
  );
};

test('after a run: table, charts, verdict and comment are written over results, infra errors, harness errors and inconclusive cells together', async () => {
  const work = scratchDir('tg-outcomes-');
  const cwd = process.cwd();
  process.chdir(work);
  const lines = [];
  const log = console.log;
  try {
    const cells = ['a', 'b', 'c', 'd', 'e'].map((c) => `${c}/t/s`);
    const base = await makeRunDir(
      Object.fromEntries(
        cells.map((k, i) => [
          k,
          [
            { medianMs: 2, seed: 10 + i },
            { medianMs: 2, seed: 20 + i },
          ],
        ]),
      ),
      join(work, 'base'),
    );
    assert.equal((await runCli(['baseline', 'update', '--results', base])).code, 0);

    const run = await makeRunDir(
      {
        'a/t/s': [
          { medianMs: 2, seed: 30 },
          { medianMs: 2, seed: 31 },
        ],
        'b/t/s': [{ medianMs: 2, seed: 32 }],
      },
      join(work, 'run'),
    );
    // a: resources measured in one repetition only (the other's target had gone).
    const withResources = join(run, 'a/t/s/rep-1/result.json');
    const doc = JSON.parse(readFileSync(withResources, 'utf8'));
    doc.resources = { cpuSeconds: 1.5, memBytes: 1e7, pods: 1, cpuPer1kRequests: 0.075 };
    writeFileSync(withResources, JSON.stringify(doc));
    cellError(join(run, 'b/t/s/rep-2'), { infra: true, message: 'the target went away during the measurement' });
    cellError(join(run, 'c/t/s/rep-1'), { infra: true });
    cellError(join(run, 'd/t/s/rep-1'), { infra: false });
    cellError(join(run, 'e/t/s/rep-1'), { infra: true, inconclusive: true });

    const cfg = applyDefaults({
      controllers: {},
      scenarios: {},
      matrices: { m: { target: 'local', controllers: [], scenarios: [] } },
    });
    console.log = (...a) => lines.push(a.join(' '));
    const code = await afterRun({ cfg, plan: { matrix: cfg.matrices.m }, runDir: run });
    console.log = log;
    const out = lines.join('\n');
    // d's error is input (infra: false): the author's to fix, said first, exit 2; an infra
    // error alone decides nothing (3 or 4). Never 0.
    assert.equal(code, 2, `bad input outranks infra errors: exit ${code}\n${out}`);
    assert.match(out, /a\/t\/s\s+2\s/);
    assert.match(out, /0\.075/, 'the repetition with resources is shown');
    for (const k of ['c/t/s', 'd/t/s', 'e/t/s']) assert.match(out, new RegExp(`${k}\\s+0\\s.*HARNESS ERROR`));
    assert.ok(existsSync(join(run, 'verdict.json')) && existsSync(join(run, 'comment.md')));
    assert.ok(existsSync(join(run, 'charts', 'a__t__s', 'timeline.svg')), 'charts of the measured cells');
    const md = readFileSync(join(run, 'comment.md'), 'utf8');
    for (const k of cells) assert.ok(md.includes(k), `${k} in the comment`);
    // A workflow's cell job (--no-gate): the same results, no verdict of its own; the gate
    // step decides with every cell (a dispatch with compare: none once failed here).
    lines.length = 0;
    console.log = (...a) => lines.push(a.join(' '));
    const ungated = await afterRun({ cfg, plan: { matrix: cfg.matrices.m }, runDir: run, gate: false });
    console.log = log;
    assert.equal(ungated, 0, lines.join('\n'));
    assert.match(lines.join('\n'), /No verdict here \(--no-gate\)/);
  } finally {
    console.log = log;
    process.chdir(cwd);
  }
});
