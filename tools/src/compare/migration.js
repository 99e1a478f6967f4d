// The migration verdict — is the candidate no worse than what runs today? — from the
// results of both (compare --migration, tailgate migrate): cells matched, non-inferiority
// per cell and metric over one family (compare/noninferiority.js), one overall answer.
import { InputError } from '../errors.js';
import { collectRun } from '../result/run-dir.js';
import { DEFAULT_MARGINS, nonInferiority } from './noninferiority.js';
import { CROSS_TALK_RATIO, duetCpu } from './cross-talk.js';

/** ['p99=10%', …] (or undefined) -> the margins, defaults for the metrics not named. */
export function parseMargins(items = []) {
  const margins = { ...DEFAULT_MARGINS };
  for (const item of items ?? []) {
    const m = /^(p50|p90|p99|p99\.9|p99\.99|errors)=(\d+(\.\d+)?%)$/.exec(item);
    if (!m)
      throw new InputError(
        `--margin: expected <p99|p99.99|…|errors>=<percent> like p99=10%, got ${JSON.stringify(item)}`,
      );
    margins[m[1]] = m[2];
  }
  return margins;
}

/**
 * Two result folders, from and candidate, cells matched by key. candidate: the name the
 * table shows (tailgate migrate: the candidate controller); without it no table.
 * -> { inputs, unmeasured }: unmeasured, the cells one side has and the other lacks or
 * could not measure — each makes the verdict inconclusive, by name (never left out).
 */
export function migrationFromDirs(baseDir, headDir, candidate = null) {
  return migrationFromCells(collectRun(baseDir), collectRun(headDir), candidate, `${baseDir} vs ${headDir}`);
}

/** The same, from cells already collected (collectRun) — `where` names them in an error;
 *  planned: the keys the run planned (a scenario neither side has is unmeasured too). */
export function migrationFromCells(baseCells, headCells, candidate, where, planned = []) {
  const base = new Map(baseCells.map((c) => [c.key, c]));
  const head = new Map(headCells.map((c) => [c.key, c]));
  const inputs = [];
  const unmeasured = [];
  for (const key of new Set([...planned, ...base.keys(), ...head.keys()])) {
    const row = key.split('/').slice(1).join('/');
    const named = candidate ? { cell: `${candidate}/${row}`, candidate, row } : { cell: key };
    const why = unmeasuredWhy(base.get(key), head.get(key), 'what runs today', 'the candidate');
    if (why) unmeasured.push({ ...named, why });
    else inputs.push({ ...named, base: base.get(key).reps, head: head.get(key).reps });
  }
  if (!inputs.length && !unmeasured.length)
    throw new InputError(`--migration: no cell has results on either side (${where})`);
  return { inputs, unmeasured };
}

// Why a cell cannot be compared: a side with no results, or results that carry errors.
function unmeasuredWhy(from, cand, fromName, candName) {
  const side = (c, name) =>
    !c
      ? `${name} has no results for it (not measured)`
      : c.errors.length
        ? `${name} was not measured: ${c.errors[0].message}`
        : null;
  return side(cand, candName) ?? side(from, fromName);
}

// One run, several controllers: each candidate's cell against `from`'s cell of the same
// tuning and scenario; all of them one family (Holm), as a PR's cells are.
export function migrationFromRun(runDir, from, wanted) {
  const cells = collectRun(runDir);
  const split = (key) => {
    const [controller, ...rest] = key.split('/');
    return { controller, rest: rest.join('/') };
  };
  const ofFrom = new Map(cells.filter((c) => split(c.key).controller === from).map((c) => [split(c.key).rest, c]));
  if (![...ofFrom.values()].some((c) => !c.errors.length))
    throw new InputError(`--from ${from}: no measured cell of that controller in ${runDir}`);
  const candidates = [
    ...new Set([...cells.map((c) => split(c.key).controller).filter((c) => c !== from), ...(wanted ?? [])]),
  ].filter((c) => !wanted || wanted.includes(c));
  const byKey = new Map(cells.map((c) => [c.key, c]));
  const inputs = [];
  const unmeasured = [];
  for (const candidate of candidates)
    for (const [row, fromCell] of ofFrom) {
      const cell = `${candidate}/${row}`;
      const c = byKey.get(cell);
      const why = unmeasuredWhy(fromCell, c, from, candidate);
      if (why) unmeasured.push({ cell, candidate, row, why });
      else inputs.push({ cell, candidate, row, base: fromCell.reps, head: c.reps });
    }
  if (!inputs.length)
    throw new InputError(`--migration: no other controller in ${runDir} has cells matching ${from}'s`);
  return { inputs, unmeasured };
}

/**
 * The verdict document: every cell's metrics, overall no-worse | worse | inconclusive,
 * exit 0 | 1 | 3. An unmeasured cell is inconclusive and named: no-worse is a claim about
 * every planned scenario, never about the ones that happened to be measured.
 */
export function migrationDoc({ inputs, unmeasured = [], gate, margins, from, candidate = null, table = false }) {
  const all = [...inputs, ...unmeasured];
  const candidates = [...new Set(all.map((i) => i.candidate))];
  const tested = inputs.length ? nonInferiority(inputs, gate, { margins }) : { cells: [] };
  const doc = {
    schemaVersion: 1,
    kind: 'tailgate.migration',
    generatedAt: new Date().toISOString(),
    from,
    candidate: candidate ?? candidates.join(','),
    ...(table ? { table: { candidates, rows: [...new Set(all.map((i) => i.row))] } } : {}),
    ...tested,
  };
  for (const c of doc.cells)
    crossTalkCheck(
      c,
      inputs.find((i) => i.cell === c.cell),
    );
  doc.cells = [
    ...doc.cells,
    ...unmeasured.map((u) => ({
      cell: u.cell,
      verdict: 'inconclusive',
      unmeasured: true,
      metrics: [],
      reasons: [u.why],
    })),
  ];
  const overall = doc.cells.some((c) => c.verdict === 'worse')
    ? 'worse'
    : doc.cells.every((c) => c.verdict === 'no-worse')
      ? 'no-worse'
      : 'inconclusive';
  return Object.assign(doc, { overall, exitCode: { worse: 1, 'no-worse': 0, inconclusive: 3 }[overall] });
}

// A migration duet between unlike proxies: the side that burns more CPU per request slows
// the other on the shared node, so the pair's ratio is pulled toward 1 (measured on kind,
// Traefik beside haproxy-ingress at 500/s a side: both p99 ×12–×20 their alone runs,
// candidate/from ×1.04 in the duet against ×0.65 loaded one at a time). A candidate that
// burns ≥ ×1.25 the CPU looks better than it is: its "no worse" is not trusted; one that
// burns ≤ 1/1.25 looks worse than it is: its "worse" is not. Either becomes inconclusive,
// saying to confirm loaded one at a time (tailgate migrate without --duet).
function crossTalkCheck(cell, input) {
  const c = input && duetCpu(input.base, input.head);
  if (!c) return;
  cell.crossTalk = c;
  const costlier = c.headCpuPer1k >= CROSS_TALK_RATIO * c.baseCpuPer1k;
  const cheaper = c.baseCpuPer1k >= CROSS_TALK_RATIO * c.headCpuPer1k;
  const untrusted = (costlier && cell.verdict === 'no-worse') || (cheaper && cell.verdict === 'worse');
  if (!untrusted) return;
  cell.reasons = [
    ...(cell.reasons ?? []),
    `${cell.verdict} as a duet, but the candidate burns ×${c.cpuRatio} the CPU per request of what runs today (${c.headCpuPer1k} vs ${c.baseCpuPer1k} s per 1,000 requests): on a shared node that pulls the ratio toward 1 — confirm loaded one at a time (tailgate migrate without --duet)`,
  ];
  cell.verdict = 'inconclusive';
}

/** Per cell its verdict, per metric the ratio, its interval against the margin, and what would decide. */
export function migrationLines(doc) {
  const pct = (x) => `${x >= 1 ? '+' : ''}${((x - 1) * 100).toFixed(0)}%`;
  const lines = [];
  for (const c of doc.cells) {
    lines.push(`${c.cell}: ${c.verdict.toUpperCase()}`);
    for (const r of c.reasons ?? []) lines.push(`  ${r}`);
    for (const m of c.metrics)
      lines.push(
        `  ${m.metric.padEnd(7)} ×${m.ratio} (${+(m.intervalLevel * 100).toPrecision(3)}% interval${m.holmAdjusted ? ' (Holm-adjusted)' : ''} ${pct(m.lower)} … ${pct(m.upper)}, margin +${m.margin}) ${m.verdict}${m.pairsNeeded ? ` — about ${m.pairsNeeded} pairs would decide` : ''}`,
      );
  }
  return lines;
}

/** compare --migration --charts: per scenario row, `from`'s runs and every candidate's. */
export function chartRows(inputs, from) {
  const rows = new Map();
  for (const i of inputs) {
    if (!rows.has(i.row)) rows.set(i.row, { row: i.row, from: { name: from, reps: i.base }, candidates: [] });
    rows.get(i.row).candidates.push({ name: i.candidate, reps: i.head });
  }
  return [...rows.values()];
}
