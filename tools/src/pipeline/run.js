// What `tailgate run` sequences, in the flow's one direction: run (the target's driver,
// each measurement handed to ingest) → compare → report (pipeline/after-run.js). The
// stages do not import later ones; this module is where they meet.
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { EXIT } from '../errors.js';
import { makeDirIn, writablePath } from '../result/write.js';
import { estimateCost } from '../plan/cost.js';
import { newRunDir } from '../run/results-dir.js';
import { runPlan } from '../run/runner.js';
import { reportTiming, timing } from '../run/timing.js';
import { sweepDeadRuns } from '../exec/registry.js';
import { loadCpus } from '../engines/load.js';
import { ingest } from '../ingest/ingest.js';
import { ingestRunners } from '../ingest/runners.js';
import { afterRun } from './after-run.js';
import { interimStage } from './interim.js';

const INGEST = { ingest, ingestRunners };

/**
 * A planned matrix run end to end; the exit code of `tailgate run`. after: what ends the
 * run instead of afterRun's verdict (tailgate migrate's, say). log: where every line for
 * people goes, the stages' included (stderr under --json).
 */
export async function runPipeline({
  cfg,
  plan,
  driver,
  opts,
  pair = null,
  after = afterRun,
  log = (...a) => console.log(...a),
}) {
  loadCpus(); // a CPU list this machine lacks is refused before any process starts
  const swept = sweepDeadRuns();
  if (swept) log(swept);
  // Absolute, so generated configs and process command lines name real paths.
  const runDir = newRunDir(resolve(opts.out));
  writeFileSync(
    join(runDir, 'plan.json'),
    `${JSON.stringify({ config: opts.config, matrix: plan.matrixName, cells: plan.cells.map((c) => c.id) }, null, 1)}\n`,
  );
  log(
    `tailgate: matrix "${plan.matrixName}" on target ${plan.matrix.target}: ${plan.cells.length} cells, about ${Math.ceil(estimateCost(plan, { cfg, oneProcess: true }).longestJobS / 60)} min; results in ${runDir}`,
  );

  const abort = new AbortController();
  const onSigint = () => {
    if (abort.signal.aborted) return;
    console.error('\ntailgate: interrupted; stopping load and cleaning up every started process…');
    abort.abort();
  };
  // A second Ctrl-C is the user's hard stop (the next run sweeps what it leaves); a
  // repeated SIGTERM (a runner cancelling, then its process group) must not cut the
  // cleanup short, so it is absorbed.
  process.once('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  try {
    let outcomes;
    try {
      const stages = plan.sequential ? { ...INGEST, interim: interimStage(plan) } : INGEST;
      outcomes = await runPlan(plan, { runDir, driver, signal: abort.signal, log, opts, pair, stages });
    } finally {
      process.removeListener('SIGINT', onSigint);
      process.removeListener('SIGTERM', onSigint);
    }
    return await finish({ cfg, plan, driver, opts, after, runDir, outcomes, signal: abort.signal, log });
  } finally {
    if (opts['sides-out'] && plan.ab) moveSides(runDir, opts['sides-out'], log);
  }
}

async function finish({ cfg, plan, driver, opts, after, runDir, outcomes, signal, log }) {
  if (signal.aborted) {
    console.error('tailgate: interrupted; cleanup done. Partial results kept in', runDir);
    return 130;
  }
  const confirm = async (keys) => {
    const cells = plan.cells.filter((c) => keys.includes(c.key)).map((c, index) => ({ ...c, index }));
    const confirmDir = `${runDir}.confirm`;
    mkdirSync(confirmDir);
    await runPlan({ ...plan, cells }, { runDir: confirmDir, driver, signal, log, opts, stages: INGEST });
    return confirmDir;
  };
  const code = await after({
    cfg,
    plan,
    runDir,
    confirm: opts['no-confirm'] ? null : confirm,
    gate: !opts['no-gate'],
    ownBaselinesDir: opts['own-baselines'] ?? null,
    log,
  });
  reportTiming(timing(outcomes), runDir, { log });
  const infra = outcomes.filter((o) => o.error).length;
  log(`\nResults: ${runDir}`);
  return infra ? EXIT.INFRA : code;
}

// A PR cell's duet, laid out as `tailgate gate` reads a cell's sides: <dir>/base/duet-<run>
// and <dir>/head/duet-<run> — a refused cell's cell-error.json too, so the gate says why.
// Written like every result (result/write.js): no link on the way from <dir> down.
function moveSides(runDir, dir, log) {
  for (const side of ['base', 'head']) {
    if (!existsSync(join(runDir, side))) continue;
    makeDirIn(dir, join(dir, side));
    const to = writablePath(join(dir, side, `duet-${basename(runDir)}`), { root: dir });
    renameSync(join(runDir, side), to);
    log(`${side}: ${to}`);
  }
}
