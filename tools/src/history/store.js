// History that outlives artifacts: one record per cell per run on main, appended to
// <store>/<profile>/<controller>/<tuning>/<scenario>.jsonl. The store is a folder: in an
// adopter's repository, an append-only branch that only workflows on the default branch
// write (docs/history.md). Reads are bounded; names are checked before they become paths.
import { closeSync, existsSync, lstatSync, openSync, readSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { InputError } from '../errors.js';
import { NAME, checkCellKey, checkName, isName, shown, under } from '../names.js';
import { schemaProblems } from '../schema.js';
import { readTextFile } from '../result/read.js';
import { workloadOf } from '../result/workload.js';
import { makeDirIn, writeFileIn } from '../result/write.js';
import { createHash } from 'node:crypto';

export const HISTORY_LIMITS = Object.freeze({ bytesPerSeries: 16 << 20, recordsPerSeries: 20_000 });
const COMMIT = /^[0-9a-f]{7,64}$/;

export function seriesPath(store, profile, cellKey) {
  checkName(profile, 'profile');
  const [controller, tuning, scenario] = checkCellKey(cellKey, 'history').split('/');
  return under(store, profile, controller, tuning, `${scenario}.jsonl`);
}

const median = (xs) => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  return s.length ? s[s.length >> 1] : null;
};

/** One history record for a cell of a run (its repetitions' medians). */
export function historyRecord(cell, { commit, time, runUrl = null }) {
  if (!COMMIT.test(String(commit)))
    throw new InputError(`--commit: "${String(commit).slice(0, 80)}" is not a commit SHA`);
  const reps = cell.reps;
  const q = (name) => median(reps.map((r) => r.percentiles?.[name]));
  const iv = (name) => {
    const lows = reps.map((r) => r.intervals?.[name]?.low);
    const highs = reps.map((r) => r.intervals?.[name]?.high);
    return { low: median(lows), high: median(highs) };
  };
  const sum = (f) => reps.reduce((a, r) => a + (f(r) ?? 0), 0);
  const byClass = {};
  for (const r of reps)
    for (const [k, v] of Object.entries(r.errors?.byClass ?? {})) byClass[k] = (byClass[k] ?? 0) + v;
  const workload = workloadOf(reps[0]);
  const requests = sum((r) => r.requests?.total);
  return {
    schemaVersion: 1,
    kind: 'tailgate.history',
    cell: cell.key,
    commit,
    time: time ?? reps[0].meta?.startedAt ?? new Date().toISOString(),
    profile: cell.profile,
    machine: reps[0].meta?.machine?.fingerprint ?? null,
    workload: workload ? createHash('sha256').update(JSON.stringify(workload)).digest('hex').slice(0, 16) : null,
    repetitions: reps.length,
    requests,
    latencyMs: Object.fromEntries(['p50', 'p99', 'p99.9', 'p99.99'].map((name) => [name, q(name)])),
    intervalsMs: { p99: iv('p99'), 'p99.99': iv('p99.99') },
    errors: {
      total: sum((r) => r.errors?.total),
      byClass,
      rate: requests ? sum((r) => r.errors?.total) / requests : 0,
    },
    dropped: sum((r) => r.load?.droppedIterations),
    faultCost: summaryCost(reps[0].faultCost),
    cpuPer1kRequests: median(reps.map((r) => r.resources?.cpuPer1kRequests)),
    ...routeFields(reps),
    ...(runUrl ? { run: String(runUrl).slice(0, 300) } : {}),
  };
}

// A cell with route faults: its edits' propagation (compare/propagation.js reads the same
// quantiles) and the errors on the way.
function routeFields(reps) {
  if (!reps.every((r) => r.routes)) return {};
  const q = (name) => median(reps.map((r) => r.routes.quantiles?.[name] ?? null));
  return {
    propagationMs: { p50: q('p50'), p90: q('p90') },
    routeErrors: reps.reduce((a, r) => a + (r.routes.errorsDuringEdits ?? 0) + (r.routes.timedOut ?? 0), 0),
  };
}

export function appendRecord(store, record) {
  const file = seriesPath(store, record.profile, record.cell);
  // The store's own folder counts too: on the history branch it is a committed path.
  const root = dirname(resolve(store));
  makeDirIn(root, dirname(file));
  if (recorded(file, record)) return { file, appended: false };
  writeFileIn(root, file, `${JSON.stringify(record)}\n`, { append: true });
  return { file, appended: true };
}

// The same run appended twice (a re-run workflow job) is one point, not two: a run is
// its commit and its first repetition's start. Only the series' tail is read (bounded);
// a re-run appends right after the run it repeats.
const TAIL_BYTES = 1 << 20;
function recorded(file, record) {
  const st = existsSync(file) ? lstatSync(file) : null;
  if (!st?.isFile()) return false;
  const size = st.size;
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(Math.min(size, TAIL_BYTES));
    readSync(fd, buf, 0, buf.length, size - buf.length);
    return buf
      .toString('utf8')
      .split('\n')
      .some((line) => {
        try {
          const r = JSON.parse(line);
          return r?.commit === record.commit && r?.time === record.time && r?.cell === record.cell;
        } catch {
          return false;
        }
      });
  } finally {
    closeSync(fd);
  }
}

/**
 * Every series in the store: [{ file, profile, cell, records, skipped }], records in time
 * order. A line that is not a valid record (schemas/history.schema.json) or names
 * another cell is skipped with a warning naming file:line, not refused: the store is
 * append-only, so a refused line would fail every later nightly run until someone
 * rewrote the history the append-only check protects. `warn` receives each warning.
 */
export function readStore(store, { warn = (line) => console.error(line) } = {}) {
  if (!existsSync(store)) throw new InputError(`${store}: no history store here`);
  const out = [];
  const walk = (dir, depth, names) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isSymbolicLink()) continue; // reads stay in the store
      const name = depth === 3 ? e.name.replace(/\.jsonl$/, '') : e.name;
      if (!(e.isDirectory() && depth < 3) && !(e.isFile() && depth === 3 && e.name.endsWith('.jsonl'))) continue;
      // Folder and file names become the profile and cell a page and an issue show.
      if (!isName(name)) {
        warn(`warning: ${shown(p)}: skipped; its name is not a valid name (${NAME.source})`);
        continue;
      }
      if (depth < 3) walk(p, depth + 1, [...names, name]);
      else out.push(readSeries(p, [...names, name], warn));
    }
  };
  walk(store, 0, []);
  return out.filter((s) => s.records.length);
}

const MAX_WARNINGS = 10;

function readSeries(file, [profile, controller, tuning, scenario], warn) {
  if (lstatSync(file).size > HISTORY_LIMITS.bytesPerSeries)
    throw new InputError(
      `${file}: over ${HISTORY_LIMITS.bytesPerSeries} bytes; a series this long is not one tailgate wrote`,
    );
  const cell = `${controller}/${tuning}/${scenario}`;
  const lines = readTextFile(file, { maxBytes: HISTORY_LIMITS.bytesPerSeries }).split('\n');
  const records = [];
  let skipped = 0;
  const skip = (i, why) => {
    if (skipped++ < MAX_WARNINGS) warn(`warning: ${file}:${i + 1}: skipped, ${shown(why, 160)}`);
  };
  for (let i = 0; i < lines.length && records.length < HISTORY_LIMITS.recordsPerSeries; i++) {
    if (!lines[i]) continue;
    let r;
    try {
      r = JSON.parse(lines[i]);
    } catch {
      skip(i, 'not a JSON record');
      continue;
    }
    const problems = schemaProblems('history', r);
    if (problems.length) {
      const [p] = problems;
      skip(i, `${p.path.join('.') || '(record)'}: ${p.message} (schemas/history.schema.json)`);
    } else if (r.profile !== profile || r.cell !== cell) skip(i, `a record of another cell or profile than its file's`);
    else records.push(r);
  }
  if (skipped > MAX_WARNINGS) warn(`warning: ${file}: ${skipped - MAX_WARNINGS} more lines skipped`);
  records.sort((a, b) => Date.parse(a.time) - Date.parse(b.time));
  return { file, profile, cell, records, skipped };
}

// The history keeps a run's fault cost as a summary: each action's own cost is for the
// gate (compare/failover.js), and a thousand entries per cell would swell every entry.
function summaryCost(cost) {
  if (!cost) return null;
  const { perAction, perActionOmitted, perActionCutMs, perActionTruncated, ...summary } = cost;
  return summary;
}
