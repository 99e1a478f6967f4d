// What `tailgate run` (and so `make bench`) prints at the end: the cells side by
// side, charts, and a verdict against committed baselines when this profile has any.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { comparePairedRuns, compareRunToBaselines } from '../compare/run-compare.js';
import { chooseBaselines, recordOwnBaselines } from '../compare/own-baselines.js';
import { collectRun } from '../result/run-dir.js';
import { EXIT } from '../errors.js';
import { writeFileIn, writeJsonAtomic } from '../result/write.js';
import { chartsForCell } from '../report/cell-charts.js';
import { renderMarkdown } from '../report/markdown.js';
import { runTable } from '../report/run-table.js';
import { duetDiff, duetDiffText, renderTuningDiffs, tuningDiffs } from '../report/effective-config.js';
import { DUET_CHANGE_FILE, oneAtATimeCells } from '../result/duet-change.js';
import { renderTerminal } from '../report/terminal.js';
import { routeLines, routesBlock } from '../report/routes.js';

// log: where the lines for people go (stderr when a command prints a document on stdout).
export async function afterRun({
  cfg,
  plan,
  runDir,
  baselinesDir = 'baselines',
  confirm = null,
  gate: gated = true,
  ownBaselinesDir = null,
  log = (...a) => console.log(...a),
}) {
  if (plan.ab) return afterConcurrentRun({ cfg, plan, runDir, log });
  const cells = collectRun(runDir);
  log(`\n${runTable(cells)}`);
  printRoutes(routeLines(cells), log);
  const diffs = tuningDiffs(runDir, cells);
  if (diffs.length) {
    writeJsonAtomic(join(runDir, 'tunings.json'), { kind: 'tailgate.tuning-diffs', diffs });
    log(`\n${renderTuningDiffs(diffs)}`);
  }
  const chartDir = join(runDir, 'charts');
  try {
    for (const c of cells.filter((x) => x.reps.length)) chartsForCell(chartDir, c.key, c.reps);
    log(`\nCharts: ${chartDir}/<cell>/{spectrum,timeline,errors}.{svg,png}`);
  } catch (err) {
    log(`\nCharts skipped: ${err.message}`);
  }
  const profile = plan.matrix.profile;
  if (!gated) {
    log('\nNo verdict here (--no-gate): `tailgate gate` compares these results.');
    return EXIT.OK;
  }
  // run --own-baselines (make bench): a verdict on any machine, from its own baselines
  // where no committed one was measured on it (compare/own-baselines.js).
  const own = ownBaselinesDir ? ownBaselines({ cells, baselinesDir, ownBaselinesDir, log }) : null;
  if (own && !own.judged) {
    log('\nNo verdict this time (exit 0): every cell was just recorded. The next run is compared with them.');
    return EXIT.OK;
  }
  if (!own && !existsSync(join(baselinesDir, profile))) {
    log(
      `\nNo baselines for profile "${profile}" yet, so no verdict. To record this run as the baseline:\n  npx tailgate baseline update --results ${runDir}\nthen commit ${baselinesDir}/${profile}/ (review it like code).`,
    );
    return EXIT.OK;
  }
  const gate = plan.matrix.gate ?? cfg.gate;
  const pick = own ? { baselineOf: own.baselineOf, skip: own.recorded } : {};
  let doc = compareRunToBaselines({ runDir, gate, baselinesDir, ...pick });
  // Confirm-on-fail: candidate cells run again with fresh repetitions, then the verdict
  // is made with both (compare/confirm.js). A sibling folder, so the fresh runs never
  // mix into this run's cells.
  if (doc.confirm.length && confirm) {
    log(
      `\n${renderTerminal(doc)}\n\nConfirming ${doc.confirm.length} cell(s) with fresh runs: ${doc.confirm.map((c) => c.cell).join(', ')}`,
    );
    const confirmDir = await confirm(doc.confirm.map((c) => c.cell));
    doc = compareRunToBaselines({ runDir, gate, baselinesDir, confirmDir, ...pick });
  }
  writeJsonAtomic(join(runDir, 'verdict.json'), doc, { root: runDir });
  writeFileIn(runDir, join(runDir, 'comment.md'), renderMarkdown(doc));
  log(`\n${renderTerminal(doc)}`);
  return doc.exitCode;
}

// Records what has no baseline of this machine yet and says which cells are judged against
// what. judged: cells left to the gate (those just recorded are not; a cell that failed is).
function ownBaselines({ cells, baselinesDir, ownBaselinesDir, log }) {
  const choices = chooseBaselines({ cells, baselinesDir, ownBaselinesDir });
  const lines = recordOwnBaselines({ cells, choices, ownBaselinesDir });
  if (lines.length) log(`\n${lines.join('\n')}`);
  const recorded = new Set([...choices].filter(([, c]) => c.source === 'record').map(([k]) => k));
  const by = (source) => [...choices.values()].filter((c) => c.source === source).length;
  if (by('own'))
    log(
      `\n${by('own')} cell(s) compared with this machine's own baselines (${ownBaselinesDir}/), ${by('committed')} with the committed ones (${baselinesDir}/): committed baselines win where they were measured on this machine`,
    );
  return {
    recorded,
    judged: cells.filter((c) => !recorded.has(c.key)).length,
    baselineOf: (c) => choices.get(c.key)?.baseline ?? null,
  };
}

// A concurrent A/B run is its own comparison: base and head measured in the same
// seconds, gated paired (one pair per repetition), no baselines involved.
function afterConcurrentRun({ cfg, plan, runDir, log }) {
  const baseDir = join(runDir, 'base');
  const headDir = join(runDir, 'head');
  const bases = collectRun(baseDir);
  log(`\nbase (each cell's own configuration):\n${runTable(bases)}`);
  const heads = collectRun(headDir);
  log(`\nhead (${plan.ab.controller}:${plan.ab.tuning}):\n${runTable(heads)}`);
  printRoutes([...routeLines(bases, 'base'), ...routeLines(heads, 'head')], log);
  const doc = comparePairedRuns({ baseDir, headDir, gate: plan.matrix.gate ?? cfg.gate });
  // What the head changes in the data plane: of the same controller (a PR, a tuning); two
  // different controllers differ in everything, and their diff says nothing.
  const same = plan.cells.every((c) => c.concurrent?.name === c.controllerName);
  const change = same && existsSync(join(runDir, 'raw')) ? duetDiff(join(runDir, 'raw'), heads) : null;
  if (change) {
    log(`\n${duetDiffText(change)}`);
    doc.duetChange = change.map((c) => ({
      directive: String(c.directive),
      before: String(c.before),
      after: String(c.after),
    }));
  }
  if (plan.workloadChange?.length) {
    doc.workloadChange = plan.workloadChange.map((x) => String(x).slice(0, 300));
    log(`\nthis PR changes the workload (both sides ran the head's): ${doc.workloadChange.join('; ')}`);
  }
  // Cells loaded one side at a time because a duet would not have been fair, and why.
  const alone = oneAtATimeCells(plan);
  if (alone.length) doc.oneAtATime = alone;
  if (change || doc.workloadChange || doc.oneAtATime)
    writeJsonAtomic(join(headDir, DUET_CHANGE_FILE), {
      kind: 'tailgate.duet-change',
      changes: doc.duetChange ?? [],
      ...(doc.workloadChange ? { workload: doc.workloadChange } : {}),
      ...(doc.oneAtATime ? { oneAtATime: doc.oneAtATime } : {}),
    });
  writeJsonAtomic(join(runDir, 'verdict.json'), doc, { root: runDir });
  writeFileIn(
    runDir,
    join(runDir, 'comment.md'),
    renderMarkdown(doc, { lead: duetDiffText(change, { markdown: true }) }),
  );
  log(`\n${renderTerminal(doc)}`);
  return doc.exitCode;
}

function printRoutes(lines, log) {
  if (lines.length) log(routesBlock(lines));
}
