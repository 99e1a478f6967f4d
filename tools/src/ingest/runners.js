// Several runners of one cell (execution segments) → one result, or a named reason
// why not. Never a result built from the survivors: a runner that failed, whose output
// is missing or truncated, whose own count disagrees with its engine's summary, or that did
// not run at the same time as the others makes the cell inconclusive, naming it.
import { existsSync } from 'node:fs';
import { RunnerProblem } from '../errors.js';
import { ingest } from './ingest.js';
import { FORMATS } from './formats.js';
import { readJsonFile } from '../result/read.js';

const OK = new Set([0, 99]);

export async function ingestRunners(runners, { events, meta, format = 'k6' }) {
  const n = runners.length;
  const name = (i) => `runner ${i + 1}/${n}`;
  runners.forEach((r, i) => {
    if (!OK.has(r.exitCode))
      throw new RunnerProblem(
        `${name(i)} failed: ${format} exited with code ${r.exitCode}${r.signal ? ` (${r.signal})` : ''}; see ${r.log}`,
      );
    if (!existsSync(r.output)) throw new RunnerProblem(`${name(i)} wrote no output (${r.output})`);
  });
  // Together in time: every runner's window overlaps the others' by most of the run.
  const start = Math.max(...runners.map((r) => r.startedAt));
  const end = Math.min(...runners.map((r) => r.endedAt));
  const longest = Math.max(...runners.map((r) => r.endedAt - r.startedAt));
  if (end - start < 0.9 * longest)
    throw new RunnerProblem(
      `runners did not run together: their common window is ${Math.max(0, end - start)} ms of ${longest} ms`,
    );
  const perFile = [];
  let result;
  try {
    result = await ingest({ output: runners.map((r) => r.output), format, events, meta, perFile });
  } catch (err) {
    const at = runners.findIndex((r) => err.message.includes(r.output));
    throw new RunnerProblem(`${at >= 0 ? name(at) : 'a runner'}: ${err.message}`);
  }
  const list = runners.map((r, i) => {
    const counted = perFile[i].requests;
    const own = r.summary ? readSummaryCount(r.summary, FORMATS[format].summaryCount) : null;
    if (own !== null && own !== counted)
      throw new RunnerProblem(
        `${name(i)}: its output holds ${counted} requests but its ${format} summary counted ${own}: output truncated`,
      );
    return {
      runner: i + 1,
      segment: `${i}/${n}:${i + 1}/${n}`,
      requests: counted,
      exitCode: r.exitCode,
      startedAt: new Date(r.startedAt).toISOString(),
      endedAt: new Date(r.endedAt).toISOString(),
      achievedRate: Math.round((counted / Math.max(1, r.endedAt - r.startedAt)) * 1000 * 10) / 10,
      ...(r.node ? { node: r.node, pod: r.pod } : {}),
    };
  });
  result.meta.runners = list;
  return result;
}

// A runner killed before its summary leaves none (or half of one): then only its exit
// code and its output speak.
function readSummaryCount(file, count) {
  if (!count) return null;
  try {
    return count(readJsonFile(file)) ?? null;
  } catch {
    return null;
  }
}
