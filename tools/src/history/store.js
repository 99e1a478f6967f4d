// History that outlives artifacts: one record per cell per run on main, appended to
// <store>/<profile>/<controller>/<tuning>/<scenario>.jsonl. The store is a folder: in an
// adopter's repository, an append-only branch that only workflows on the default branch
// write (docs/history.md). Reads are bounded; names are checked before they become paths.
import { appendFileSync, existsSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { InputError } from '../errors.js';
import { checkCellKey, checkName, under } from '../names.js';
import { readTextFile } from '../result/read.js';
import { workloadOf } from '../result/workload.js';
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
    faultCost: reps[0].faultCost ?? null,
    cpuPer1kRequests: median(reps.map((r) => r.resources?.cpuPer1kRequests)),
    ...(runUrl ? { run: String(runUrl).slice(0, 300) } : {}),
  };
}

export function appendRecord(store, record) {
  const file = seriesPath(store, record.profile, record.cell);
  mkdirSync(dirname(file), { recursive: true });
  appendFileSync(file, `${JSON.stringify(record)}\n`);
  return file;
}

/** Every series in the store: [{ file, profile, cell, records }], records in time order. */
export function readStore(store) {
  if (!existsSync(store)) throw new InputError(`${store}: no history store here`);
  const out = [];
  const walk = (dir, depth) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isSymbolicLink()) continue; // reads stay in the store
      if (e.isDirectory() && depth < 3) walk(p, depth + 1);
      else if (e.isFile() && depth === 3 && e.name.endsWith('.jsonl')) out.push(readSeries(store, p));
    }
  };
  walk(store, 0);
  return out.filter((s) => s.records.length);
}

function readSeries(store, file) {
  if (lstatSync(file).size > HISTORY_LIMITS.bytesPerSeries)
    throw new InputError(
      `${file}: over ${HISTORY_LIMITS.bytesPerSeries} bytes; a series this long is not one tailgate wrote`,
    );
  const [profile, controller, tuning, scenario] = relative(store, file)
    .replace(/\.jsonl$/, '')
    .split(sep);
  const records = readTextFile(file, { maxBytes: HISTORY_LIMITS.bytesPerSeries })
    .split('\n')
    .filter(Boolean)
    .slice(0, HISTORY_LIMITS.recordsPerSeries)
    .map((line, i) => {
      try {
        return JSON.parse(line);
      } catch {
        throw new InputError(`${file}:${i + 1}: not a JSON record`);
      }
    })
    .filter((r) => r?.kind === 'tailgate.history')
    .sort((a, b) => Date.parse(a.time) - Date.parse(b.time));
  return { file, profile, cell: `${controller}/${tuning}/${scenario}`, records };
}
