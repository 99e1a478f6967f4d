// What `tailgate migrate` prints and writes at the end: both controllers' tables, then the
// migration verdict (non-inferiority, compare/migration.js) as lines, a table and
// migration.json / migration.md in the run folder.
import { join } from 'node:path';
import { collectRun } from '../result/run-dir.js';
import { writeFileIn, writeJsonAtomic } from '../result/write.js';
import { runTable } from '../report/run-table.js';
import { migrationMarkdown, migrationTable } from '../report/migration.js';
import { migrationDoc, migrationFromCells, migrationLines } from '../compare/migration.js';
import { knobGapLines } from '../plan/knob-gaps.js';

export function afterMigration({ cfg, plan, runDir, margins, gaps = [], log = (...a) => console.log(...a) }) {
  const from = plan.cells[0].controllerName;
  const to = plan.ab.controller;
  const [baseDir, headDir] = [join(runDir, 'base'), join(runDir, 'head')];
  const [bases, heads] = [collectRun(baseDir), collectRun(headDir)];
  log(`\n${from} (what runs today):\n${runTable(bases)}`);
  log(`\n${to} (the candidate, ${plan.ab.tuning}):\n${runTable(heads)}`);
  // Every planned scenario is in the verdict: one the candidate was refused in or never
  // measured makes it inconclusive, by name (never a no-worse over the others).
  const planned = [...new Set(plan.cells.map((c) => c.key))];
  const doc = migrationDoc({
    ...migrationFromCells(bases, heads, to, `${baseDir} vs ${headDir}`, planned),
    gate: plan.matrix.gate ?? cfg.gate,
    margins,
    from,
    candidate: to,
    table: true,
  });
  doc.design = plan.alternate ? 'alternate' : 'duet';
  doc.gaps = gaps;
  writeJsonAtomic(join(runDir, 'migration.json'), doc, { root: runDir });
  writeFileIn(runDir, join(runDir, 'migration.md'), migrationMarkdown(doc));
  log(`\n${[...knobGapLines(gaps), ...migrationLines(doc)].join('\n')}\n\n${migrationTable(doc)}`);
  log(
    `\nmigration verdict: ${doc.overall.toUpperCase()} — is ${to} no worse than ${from}? exit ${doc.exitCode} (${join(runDir, 'migration.md')})`,
  );
  return doc.exitCode;
}
