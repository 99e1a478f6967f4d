// plan -> run, cell by cell, each measurement handed to the ingest stage the pipeline
// passes in (pipeline/run.js: the run stage does not import a later one). A harness
// failure in one cell is recorded (cell-error.json, later an infra-error verdict) and the
// run goes on; it is never retried, because a retried measurement is a selected one.
import { join } from 'node:path';
import { scenarioMs } from '../config/normalise.js';
import { InfraError, TailgateError } from '../errors.js';
import { machineInfo } from '../result/machine.js';
import { writeJsonAtomic } from '../result/write.js';
import { chooseEngine, loadOutput } from '../engines/index.js';
import { cellDir as makeCellDir } from './results-dir.js';
import { gitSha } from './git.js';
import { duetSides } from '../engines/load.js';
import { workloadRecord } from '../result/workload.js';
import { round } from '../numbers.js';
import { sequence } from './sequence.js';
import { progress } from './progress.js';

/** stages: { ingest, ingestRunners } of the ingest stage. */
export async function runPlan(plan, { runDir, driver, signal, log = console.log, opts = {}, pair = null, stages }) {
  // A driver may hold state across cells (a cluster per controller): start() gives
  // a session, teardown() always runs. Which engine loads each cell is decided (or
  // refused, recorded like any refusal) before any cluster or process starts.
  let session;
  let engines;
  try {
    engines = await cellEngines(plan, opts.engine, log);
    // Before the driver plans its steps: they load the in-cluster image of the cell's engine.
    for (const cell of plan.cells) cell.engine = engines.get(cell.key ?? cell.id).name;
    session = driver.start ? await driver.start(plan, { runDir, signal, log, opts }) : driver;
  } catch (err) {
    // Refused before any cell ran (a values file the chart's schema refuses): every planned
    // cell records why, so the gate tells the PR in one line instead of finding nothing.
    if (err instanceof TailgateError) recordRefusal(plan, runDir, err);
    throw err;
  }
  try {
    return await runCells(plan, { runDir, session, signal, log, pair, stages, engines });
  } finally {
    await session.teardown?.();
  }
}

// cell-error.json: why a cell has no result (compare reads it: infra-error, input-error
// when infra is false, inconclusive when the evidence itself is unusable).
function writeCellError(dir, cell, err) {
  writeJsonAtomic(
    join(dir, 'cell-error.json'),
    {
      kind: 'tailgate.cell-error',
      cell: cell.id,
      infra: err instanceof InfraError,
      ...(err.inconclusive ? { inconclusive: true } : {}),
      message: err.message,
      details: err.details,
    },
    { force: true },
  );
}

function recordRefusal(plan, runDir, err) {
  for (const cell of plan.cells)
    for (const root of cell.concurrent ? ['base', 'head'].map((r) => join(runDir, r)) : [runDir])
      writeCellError(makeCellDir(root, cell), cell, err);
}

async function runCells(plan, { runDir, session, signal, log, pair, stages, engines }) {
  const host = { machine: machineInfo(), sha: gitSha() };
  const outcomes = [];
  const told = new Set();
  const looks = sequence({ runDir, stages, log });
  const pace = progress(plan, { log });
  for (const cell of plan.cells) {
    if (signal?.aborted) break;
    // An optional repetition (maxRepetitions) runs only while its cell is undecided.
    if (!looks.wanted(cell)) continue;
    pace.next(cell);
    // Concurrent A/B: raw output under raw/, one result per side under base/ and head/.
    const dir = makeCellDir(cell.concurrent ? join(runDir, 'raw') : runDir, cell);
    const started = Date.now();
    const prefix = `[${cell.index + 1}/${plan.cells.length}] ${cell.id}`;
    try {
      const run = await session.runCell({ cell, cellDir: dir, signal });
      if (signal?.aborted) break;
      const meta = runMeta(cell, run, { ...host, engine: engines.get(cell.key ?? cell.id) }, pair);
      const each = { cell, run, meta, runDir, dir, stages, log: (side, line) => log(`${prefix} ${side}: ${line}`) };
      if (run.alternate || cell.concurrent) {
        await (run.alternate ? ingestAlternate(each, pair) : ingestDuet(each));
        outcomes.push({ cell, dir, load: loadWindow(run.load) });
        continue;
      }
      const result = await ingestOne(each);
      outcomes.push({ cell, dir, result, load: loadWindow(run.load) });
      log(`${prefix}: ${progressLine(result)} (${((Date.now() - started) / 1000).toFixed(1)}s)`);
    } catch (err) {
      if (!(err instanceof TailgateError)) throw err;
      const infra = err instanceof InfraError;
      writeCellError(dir, cell, err);
      outcomes.push({ cell, dir, error: err });
      // A failure every later cell shares (its controller's setup) is dumped once.
      const again = told.has(err.message);
      told.add(err.message);
      log(`${prefix}: ${infra ? 'INFRA ERROR' : 'ERROR'}: ${err.message}${again ? ' (as above)' : ''}`);
      if (!again) for (const d of err.details) log(`    ${d}`);
      if (signal?.aborted) break;
    }
  }
  return outcomes;
}

/**
 * Each cell's engine (engines/index.js chooseEngine): --engine, else its scenario's
 * `engine`, else auto. Resolved once per request, said once when auto chose Vegeta.
 */
async function cellEngines(plan, flag, log) {
  const byRequest = new Map();
  const out = new Map();
  for (const cell of plan.cells) {
    const requested = flag ?? cell.scenario?.engine ?? 'auto';
    if (!byRequest.has(requested)) {
      const e = await chooseEngine(requested);
      if (e.why) log(`tailgate: ${e.why}`);
      byRequest.set(requested, e);
    }
    const e = byRequest.get(requested);
    out.set(cell.key ?? cell.id, e);
  }
  return out;
}

// What every result of a run records: where, what, as written, and which pair.
function runMeta(cell, run, { machine, sha, engine }, pair) {
  const k6Version = engine.name === 'k6' ? engine.version : null;
  const meta = {
    target: cell.target,
    profile: cell.profile,
    machine,
    gitSha: sha,
    // A k6 run's version where it always was; another engine's is in its workload.
    ...(engine.name === 'k6' ? { k6: k6Version } : {}),
    controller: { name: cell.controllerName, ...cell.controller },
    tuning: { name: cell.tuningName, ...cell.tuning },
    scenario: { name: cell.scenarioName, ...cell.scenario },
    workload: workloadRecord(cell.scenario, engine),
    rate: cell.scenario.script === 'steady' ? cell.scenario.rate : null,
    durationMs: scenarioMs(cell.scenario).duration,
    repetition: cell.repetition,
    // A duet's sequential design, so the gate adjusts for its looks (compare/sequential-gate.js).
    ...(cell.concurrent &&
      cell.sequential && {
        sequential: { ...cell.sequential, looks: Math.max(0, cell.repetition - cell.sequential.minPairs) },
      }),
    // Paired mode: the pair this run belongs to, so compare matches base and head
    // by it (compare/pairs.js) rather than by folder or clock.
    ...(pair ? { pair } : {}),
    // The engine's own cost where it was measured (engines/usage.js): one engine serves
    // a duet's two sides, so both record the whole of it.
    ...(run.load.usage ? { loadGenerator: { engine: engine.name, version: engine.version, ...run.load.usage } } : {}),
    startedAt: new Date(run.load.startedAt).toISOString(),
    k6ExitCode: run.load.exitCode,
  };
  if (cell.scenario.script === 'saturation')
    meta.slo = { p99Ms: scenarioMs(cell.scenario).sloP99, errorRate: cell.scenario.slo?.errorRate ?? 0.01 };
  return meta;
}

// A duet's sides loaded one at a time: each its own engine output, a whole result each,
// paired by repetition (numbered from --pair) and gated as interleaved pairs (no
// meta.ab: they did not share the seconds of a duet).
async function ingestAlternate(each, pair) {
  const { cell, run, meta } = each;
  for (const side of run.alternate) {
    const [name, tuning] = sideOf(cell, side.role);
    const r = await each.stages.ingest({
      ...loadOutput(side.load, side.dir),
      events: side.eventsFile,
      meta: {
        ...meta,
        pair: (pair ?? 1) - 1 + cell.repetition,
        alternate: { role: side.role, controller: name, tuning },
      },
    });
    writeSide(each, side.role, r, side.resources);
  }
}

// A duet: one engine output, its sides a and b split into the base's and the head's result.
async function ingestDuet(each) {
  const { cell, run, meta, dir } = each;
  for (const [side, role] of [
    ['a', duetSides(cell)[0]],
    ['b', duetSides(cell)[1]],
  ]) {
    const [name, tuning] = sideOf(cell, role);
    const r = await each.stages.ingest({
      ...loadOutput(run.load, dir),
      events: run.eventsFile,
      side,
      meta: { ...meta, pair: cell.repetition, ab: { side, role, controller: name, tuning } },
    });
    // Each side's own data plane: its CPU per 1,000 of its requests (cross-talk, gate.js).
    writeSide(each, role, r, run.concurrent?.resources?.[role === 'base' ? 0 : 1]);
  }
}

// [controller, tuning] of a duet's side.
function sideOf(cell, role) {
  return role === 'base' ? [cell.controllerName, cell.tuningName] : [cell.concurrent.name, cell.concurrent.tuningName];
}

// One side's result under <run>/<role>/, with its CPU per 1,000 of its own requests.
function writeSide({ cell, runDir, log }, role, result, resources) {
  if (resources) result.resources = withCpuPer1k(resources, result.wholeRun.requests);
  writeJsonAtomic(join(makeCellDir(join(runDir, role), cell), 'result.json'), result);
  log(`${role} (${sideOf(cell, role).join('/')})`, progressLine(result));
}

async function ingestOne({ run, meta, dir, stages }) {
  const result = run.load.runners
    ? await stages.ingestRunners(run.load.runners, { events: run.eventsFile, meta, format: run.load.format ?? 'k6' })
    : await stages.ingest({ ...loadOutput(run.load, dir), events: run.eventsFile, meta });
  if (run.resources) result.resources = withCpuPer1k(run.resources, result.wholeRun.requests);
  writeJsonAtomic(join(dir, 'result.json'), result);
  return result;
}

function withCpuPer1k(resources, requests) {
  const cpu = resources.cpuSeconds;
  return {
    ...resources,
    cpuPer1kRequests: Number.isFinite(cpu) ? round(cpu / Math.max(1, requests / 1000)) : null,
  };
}

function loadWindow(outcome) {
  return { startedAt: outcome.startedAt, endedAt: outcome.endedAt ?? Date.now() };
}

export function progressLine(r) {
  const p = r.latency.percentiles;
  const fmt = (v) => (v === null ? '-' : `${v.toFixed(2)}ms`);
  const cls = Object.entries(r.errors.byClass)
    .filter(([, n]) => n)
    .map(([k, n]) => `${k}=${n}`)
    .join(' ');
  let line = `${r.requests.total} req @ ${r.load.achievedRate}/s, p50 ${fmt(p.p50)} p99 ${fmt(p.p99)} p99.99 ${fmt(p['p99.99'])}, errors ${r.errors.total}${cls ? ` (${cls})` : ''}, dropped ${r.load.droppedIterations}`;
  if (r.resources?.reloads !== undefined) line += `, reloads ${r.resources.reloads}`;
  if (r.resources?.cpuPer1kRequests !== undefined) line += `, proxy CPU ${r.resources.cpuPer1kRequests}s/1k req`;
  if (r.load.k6ExitCode !== 0 && r.load.k6ExitCode !== null) line += `, k6 exit ${r.load.k6ExitCode}`;
  return line;
}
