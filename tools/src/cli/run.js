import { loadConfig } from './config-file.js';
import { EXIT, InputError } from '../errors.js';
import { planMatrix } from '../plan/plan.js';
import { runPipeline } from '../pipeline/run.js';
import { target } from '../targets/index.js';
import { configOption, int, planOverrides } from './options.js';
import { ENGINE_NAMES } from '../engines/index.js';
import { didYouMean } from '../nearest.js';

export const summary = 'Run a matrix of bench.yaml on a target; writes results/<timestamp>/';
export const usage = `Usage: tailgate run --matrix <name> [--config bench.yaml] [--out results]
                   [--controllers a,b] [--tunings a,b] [--scenarios a,b]
                   [--rate N] [--duration 30s; env TAILGATE_DURATION] [--repetitions N] [--dry-run]
                   [--kubeconfig file --target-url URL]   (target cluster)
                   [--engine auto|k6|vegeta; env TAILGATE_ENGINE]   (the load engine; bench.yaml: engine.
                      auto: k6 where its pinned release binary is installed, else Vegeta: docs/engines.md)
                   [--pair N]   (paired mode: which base/head pair these runs belong to; env TAILGATE_PAIR)
                   [--no-confirm]   (with baselines: do not re-run candidate cells, just list them)
                   [--no-gate]   (results only, no verdict against committed baselines: a later
                      \`tailgate gate\` step decides, as the workflows' cell jobs do)
                   [--own-baselines <dir>]   (make bench: a verdict on any machine — a cell without a
                      committed baseline measured on this machine is compared with this machine's own
                      in <dir>/<machine fingerprint>/; where there is none yet, this run's results are
                      recorded there (exit 0, said) and the next run is compared with them)
                   [--ab-head <controller>[:<tuning>]]   (local and kind: concurrent A/B, a duet — every
                      cell's configuration is the base, this one the head, both live at once in front of
                      the same pods (kind: two releases in one cluster); results in <run>/base and
                      <run>/head, gated paired; bench.yaml: compare: concurrent, head: <controller>[:<tuning>])
                   [--duet-base <base checkout's bench.yaml>]   (kind: a PR's duet — each cell's controller
                      as the base commit configures it beside the same controller as this checkout does)
                   [--alternate]   (kind, with a duet: both releases in one cluster, loaded one side at a
                      time — base, head; head, base — gated as interleaved pairs, numbered from --pair;
                      no cross-talk. bench.yaml: alternate: true)
                   [--sides-out <dir>]   (with a duet: once the run ends, its base and head results move
                      to <dir>/base/duet-<run> and <dir>/head/duet-<run>, where \`tailgate gate\` reads a
                      PR cell's sides — a refused cell's cell-error.json too)

Writes results/<UTC timestamp>/<controller>/<tuning>/<scenario>/rep-<n>/ (result.json, k6 raw
output, k6 summary, events.jsonl, generated proxy configs). Never reuses a results folder.
Exit codes: 0 all cells ran (and passed, where there is a verdict) · 1 regression · 2 bad input ·
3 inconclusive · 4 a cell failed for infrastructure reasons · 130 interrupted. A verdict comes
from committed baselines for the matrix's profile (unless --no-gate) or from a duet.`;
export const options = {
  ...configOption,
  matrix: { type: 'string', default: process.env.TAILGATE_MATRIX ?? 'local' },
  out: { type: 'string', default: process.env.TAILGATE_RESULTS ?? 'results' },
  controllers: { type: 'string' },
  tunings: { type: 'string' },
  scenarios: { type: 'string' },
  rate: { type: 'string' },
  // A workflow test shortens every run without editing bench.yaml (docs/testing.md).
  duration: { type: 'string', default: process.env.TAILGATE_DURATION || undefined },
  repetitions: { type: 'string' },
  'dry-run': { type: 'boolean', default: false },
  kubeconfig: { type: 'string' },
  'target-url': { type: 'string' },
  pair: { type: 'string', default: process.env.TAILGATE_PAIR },
  'no-confirm': { type: 'boolean', default: false },
  'no-gate': { type: 'boolean', default: false },
  'own-baselines': { type: 'string' },
  'ab-head': { type: 'string' },
  'duet-base': { type: 'string' },
  alternate: { type: 'boolean', default: false },
  'sides-out': { type: 'string' },
  engine: { type: 'string', default: process.env.TAILGATE_ENGINE || undefined },
};

const ownBaselinesOnly =
  '--own-baselines <dir> applies to a run gated against baselines: not with --no-gate or a duet, and not empty';

export async function run(opts) {
  if (opts.engine !== undefined && !ENGINE_NAMES.includes(opts.engine))
    throw new InputError(
      `--engine: expected one of ${ENGINE_NAMES.join(', ')}, got ${JSON.stringify(opts.engine.slice(0, 20))}${didYouMean(opts.engine, ENGINE_NAMES)}`,
    );
  const own = opts['own-baselines'] !== undefined;
  if (own && (opts['no-gate'] || !opts['own-baselines'])) throw new InputError(ownBaselinesOnly);
  const overrides = planOverrides(opts);
  const cfg = loadConfig(opts.config, { matrix: opts.matrix, overrides });
  const plan = planMatrix(cfg, opts.matrix, overrides);
  const driver = await target(plan.matrix.target).driver();
  if (opts['dry-run']) {
    if (!driver.dryRun) throw new InputError(`--dry-run is not available for target "${plan.matrix.target}"`);
    // The engine asked for shows in each cell's commands (auto resolves when the run starts).
    if (opts.engine && opts.engine !== 'auto') for (const c of plan.cells) c.engine = opts.engine;
    process.stdout.write(driver.dryRun(plan, opts));
    return EXIT.OK;
  }
  if (own && plan.ab) throw new InputError(ownBaselinesOnly);
  if (opts['sides-out'] && !plan.ab)
    throw new InputError(
      '--sides-out applies to a duet (--duet-base, --ab-head, or a matrix with compare: concurrent)',
    );
  const pair = int(opts.pair, 'pair', { min: 1, max: 10_000 });
  return runPipeline({ cfg, plan, driver, opts, pair });
}
