import { loadConfig } from './config-file.js';
import { InputError } from '../errors.js';
import { planMatrix } from '../plan/plan.js';
import { runPipeline } from '../pipeline/run.js';
import { afterMigration } from '../pipeline/after-migration.js';
import { parseMargins } from '../compare/migration.js';
import { knobGapLines, knobGaps } from '../plan/knob-gaps.js';
import { target } from '../targets/index.js';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { configOption, int, list, planOverrides } from './options.js';
import { jsonOption, withJson } from './json-out.js';

export const summary = 'Is a candidate controller no worse than the current one? Both run side by side, one verdict';
export const usage = `Usage: tailgate migrate --matrix <name> --from <controller> --to <candidate>[:<tuning>]
                       [--config bench.yaml] [--out results] [--tunings a,b] [--scenarios a,b]
                       [--rate N] [--duration 30s] [--repetitions N] [--pair N]
                       [--margin p99=10%,p99.99=25%,errors=10%] [--duet] [--json]

Runs the matrix's cells of --from with --to beside it — the same pods, the same faults —
and decides per cell whether the candidate is no worse (non-inferiority: the upper end of
the interval of candidate / from below 1 + margin, Holm over every cell and metric).
  kind    both controllers installed once in one cluster, loaded one at a time (from,
          candidate; candidate, from; …): interleaved pairs without a cluster per run, no
          cross-talk. --duet: both at once under one k6 — fewer pairs for the same power,
          but the two share the node (docs/duet.md).
  local   both data planes in front of the same pods, always at once (a duet).
First it lists the knobs of today's tuning the candidate cannot express or sets otherwise
(kind: the catalog's controller.yaml knobs). Writes results/<UTC timestamp>/ with base/
(from) and head/ (the candidate), migration.json and migration.md (the gaps, then the
table). Each cell: no worse / worse / inconclusive with the pairs that would decide.
--json: stdout is migration.json's document and nothing else (progress and tables go to
stderr); nothing on stdout when the run ended without one (interrupted, bad input).

Exit codes: 0 no worse everywhere · 1 worse somewhere · 2 bad input · 3 not decided yet
(more pairs) · 4 infrastructure error · 130 interrupted`;
export const options = {
  ...configOption,
  matrix: { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
  out: { type: 'string', default: process.env.TAILGATE_RESULTS ?? 'results' },
  tunings: { type: 'string' },
  scenarios: { type: 'string' },
  rate: { type: 'string' },
  duration: { type: 'string', default: process.env.TAILGATE_DURATION || undefined },
  repetitions: { type: 'string' },
  pair: { type: 'string' },
  margin: { type: 'string' },
  duet: { type: 'boolean', default: false },
  ...jsonOption,
};

export function run(opts, positionals, io) {
  return withJson(opts.json, io, async ({ log }) => {
    let runDir = null;
    const code = await migrate(opts, (dir) => (runDir = dir), log);
    return { code, doc: runDir && opts.json ? migrationOf(join(runDir, 'migration.json')) : null };
  });
}

function migrationOf(file) {
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
}

async function migrate(opts, ranIn, log) {
  const missing = ['matrix', 'from', 'to'].filter((k) => !opts[k]);
  if (missing.length) throw new InputError(`${missing.map((k) => `--${k}`).join(', ')} required\n\n${usage}`);
  if (list(opts.from, 'from').length !== 1) throw new InputError('--from: one controller, what runs today');
  const margins = parseMargins(list(opts.margin, 'margin'));
  // --rate and --duration are checked as the file's own values are, before anything is derived.
  const overrides = planOverrides({ ...opts, controllers: opts.from, 'ab-head': opts.to });
  const cfg = loadConfig(opts.config, { matrix: opts.matrix, overrides });
  const kind = Object.hasOwn(cfg.matrices, opts.matrix) && cfg.matrices[opts.matrix].target === 'kind';
  const plan = planMatrix(cfg, opts.matrix, { ...overrides, alternate: kind && !opts.duet });
  // Without :<tuning>, the candidate runs each row's own tuning (its catalog's overlay for it).
  if (!opts.to.includes(':')) {
    plan.ab.tuning = "each row's";
    for (const c of plan.cells) Object.assign(c.concurrent, { tuningName: c.tuningName, tuning: c.tuning });
  }
  if (plan.cells.some((c) => c.concurrent.name === c.controllerName))
    throw new InputError(`--to: ${opts.to} is --from's own controller; a tuning change is a PR's gate (tailgate run)`);
  // The gaps before the numbers: what the candidate cannot express is known before any run.
  const gaps = knobGaps(cfg, plan);
  if (gaps.length) log(`${knobGapLines(gaps).join('\n')}\n`);
  const driver = await target(plan.matrix.target).driver();
  const pair = int(opts.pair, 'pair', { min: 1, max: 10_000 });
  return runPipeline({
    cfg,
    plan,
    driver,
    opts: { ...opts, 'no-confirm': true },
    pair,
    log,
    after: (a) => (ranIn(a.runDir), afterMigration({ ...a, margins, gaps })),
  });
}
