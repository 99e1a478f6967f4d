import { neutralizeCommands, setOutputs } from '../github-output.js';
import { loadBench } from '../config/load.js';
import { loadConfig } from './config-file.js';
import { planMatrix } from '../plan/plan.js';
import { planOfRecord } from '../plan/of-record.js';
import { benchAtRef } from '../config/base-ref.js';
import { describeCost, describeGates, estimateCost, jobsOf } from '../plan/cost.js';
import { duetRefusal } from '../plan/duet.js';
import { pairOrder, pairingMode } from '../plan/pairing.js';
import { ROOT } from '../exec/tools.js';
import { InputError } from '../errors.js';
import { shown } from '../names.js';
import { configOption, planOverrides } from './options.js';
import { checkGateIdentity, gateIdentity } from '../plan/gate-identity.js';

export const summary = 'Print the cells a matrix expands to (JSON with --json, for workflow matrices)';
export const usage = `Usage: tailgate plan --matrix <name> [--config bench.yaml] [--json | --github-output] [--base-ref <sha>]
                    [--controllers a,b] [--tunings a,b] [--scenarios a,b]
                    [--rate N] [--duration 30s] [--repetitions N]   (checked as run checks them)
                    [--duet-base <base bench.yaml> [--duet-check]]
       tailgate plan --matrix <a,b,c>   (several gates, each its own job: each one's estimate, then
                    what a PR waits for, the longest, and the runner-minutes it uses, their sum —
                    init's gates: --matrix pr,pr-failover,pr-routes)
       tailgate plan --matrix <name> --gate [--github-output] [--gate-name <name>] [--workflow <file or ref>]
       tailgate plan --matrix <name> --base-dir <checkout of the PR's base> --pairing
       tailgate plan --pair-order --repetitions N [--first-pair 1]

  --json           the GitHub Actions matrix: {"include":[{controller,tuning,scenario}]}
  --github-output  the lines matrix=<json> and compare=<baseline|paired|concurrent>, appended
                   to $GITHUB_OUTPUT when it is set (else printed)
  --gate           the line gate=<name> only (--github-output: to $GITHUB_OUTPUT): the gate's
                   name — its artifacts, comment and check run — is --gate-name, else the
                   matrix for the default bench.yaml, else <config path>.<matrix>; refused
                   (exit 2) when another gate.yml call of any .github/workflows file has it
                   too (one check run and one comment per commit, whatever workflow runs
                   it); --workflow (a path or github.workflow_ref) is named as the caller's
  --base-ref       the PR's base commit: plan the cells of its matrix too (those this
                   checkout still defines) — a PR answers for the base's cells, so dropping
                   one from its matrix does not stop it being measured (the gate's --matrix
                   judges the same plan of record)
  --duet-check     with --duet-base: print "duet" when this checkout's matrix can run beside the
                   base checkout's as duets on one cluster, else "interleaved: <why not>"
  --pairing        how a PR's cell runs base against head, one line: "duet", "interleaved:
                   <why>" or "alone: <why>" (the base commit has no bench config) — the
                   duet check plus: a base that is tailgate itself with other code runs
                   interleaved, each side with its own code
  --pair-order     the interleaved runs, a line "<base|head> <pair>" each: A B, B A, A B…
                   (--first-pair: a confirmation round continues the numbering)`;
export const options = {
  ...configOption,
  matrix: { type: 'string', default: 'local' },
  json: { type: 'boolean', default: false },
  'github-output': { type: 'boolean', default: false },
  controllers: { type: 'string' },
  tunings: { type: 'string' },
  scenarios: { type: 'string' },
  rate: { type: 'string' },
  duration: { type: 'string' },
  repetitions: { type: 'string' },
  'duet-base': { type: 'string' },
  'duet-check': { type: 'boolean', default: false },
  'base-dir': { type: 'string' },
  pairing: { type: 'boolean', default: false },
  'pair-order': { type: 'boolean', default: false },
  'first-pair': { type: 'string' },
  'base-ref': { type: 'string' },
  gate: { type: 'boolean', default: false },
  'gate-name': { type: 'string', default: '' },
  workflow: { type: 'string', default: '' },
};

export function run(opts) {
  if (opts['pair-order']) {
    const int = (v, dflt) => (v === undefined ? dflt : /^\d{1,7}$/.test(v) ? Number(v) : NaN);
    for (const { side, pair } of pairOrder(int(opts.repetitions, 3), int(opts['first-pair'], 1)))
      console.log(`${side} ${pair}`);
    return;
  }
  // The gate's name, its own step before the plan's (the config is not read): a PR whose
  // bench.yaml is refused still gets its input-error comment under its gate's name; a
  // name another call has gets none.
  if (opts.gate) {
    const line = [['gate', uniqueGate(opts)]];
    if (opts['github-output']) setOutputs(line);
    else console.log(`gate=${line[0][1]}`);
    return;
  }
  if (opts.matrix.includes(',')) return planGates(opts);
  // --rate and --duration are checked as the file's own values are (config/overrides.js).
  const overrides = opts.pairing || opts['duet-check'] ? {} : planOverrides(opts);
  const cfg = loadConfig(opts.config, { matrix: opts.matrix, overrides });
  if (opts.pairing) {
    if (!opts['base-dir']) throw new InputError('--pairing needs --base-dir <checkout of the base commit>');
    const { mode, why } = pairingMode({
      headCfg: cfg,
      matrix: opts.matrix,
      baseDir: opts['base-dir'],
      configName: opts.config,
      tailgateHome: ROOT,
    });
    console.log(why ? `${mode}: ${why}` : mode);
    return;
  }
  // Can this PR's cells run as duets? One line: "duet", or "interleaved: <why not>".
  if (opts['duet-check']) {
    if (!opts['duet-base']) throw new InputError('--duet-check needs --duet-base <base checkout bench.yaml>');
    const why = duetRefusal(loadBench(opts['duet-base']), cfg, opts.matrix);
    console.log(why ? `interleaved: ${why}` : 'duet');
    return;
  }
  const plan =
    opts['base-ref'] === undefined
      ? planMatrix(cfg, opts.matrix, overrides)
      : planOfRecord(cfg, opts.matrix, {
          overrides,
          base: benchAtRef({ ref: opts['base-ref'], configFile: opts.config, matrix: opts.matrix }).cfg,
        });
  // One entry per job (plan/cost.js jobsOf): a cell, repetitions inside it; a duet's
  // controller, its tunings and scenarios as lists (one cluster runs them all).
  const matrix = () => JSON.stringify({ include: jobsOf(plan).flatMap(jobEntries) });
  if (opts['github-output']) {
    setOutputs([
      ['matrix', matrix()],
      ['compare', cfg.matrices[opts.matrix].compare],
    ]);
    return;
  }
  if (opts.json) {
    console.log(matrix());
    return;
  }
  for (const c of plan.cells) console.log(`${String(c.index + 1).padStart(3)}  ${c.target}  ${c.id}`);
  console.log(`\nEstimate: ${describeCost(plan, estimateCost(plan, { cfg }))}`);
}

// --matrix a,b,c: several gates, each its own job on its own runner (init's pr,
// pr-failover, pr-routes): each gate's estimate, then what a PR waits for (the longest)
// and what it uses (the sum). Text only: a workflow plans one matrix at a time.
function planGates(opts) {
  const one = ['json', 'github-output', 'pairing', 'duet-check', 'duet-base', 'base-ref', 'base-dir'].filter(
    (f) => opts[f] !== undefined && opts[f] !== false,
  );
  if (one.length)
    throw new InputError(`--matrix ${opts.matrix}: --${one[0]} plans one matrix; name one, or drop --${one[0]}`);
  const names = opts.matrix.split(',').map((m) => m.trim());
  const plans = names.map((m) => {
    const overrides = planOverrides(opts);
    const cfg = loadConfig(opts.config, { matrix: m, overrides });
    const plan = planMatrix(cfg, m, overrides);
    return { name: m, plan, cost: estimateCost(plan, { cfg }) };
  });
  for (const { name, plan, cost } of plans) console.log(`${name}: ${describeCost(plan, cost)}`);
  console.log(`\n${describeGates(plans)}`);
}

// A job's matrix entries: one, with comma lists when its cells are every tuning ×
// scenario of one controller (what `run --tunings a,b --scenarios c,d` runs); else one
// per cell.
function jobEntries(cells) {
  const uniq = (key) => [...new Set(cells.map((c) => c[key]))];
  const [controllers, tunings, scenarios] = ['controllerName', 'tuningName', 'scenarioName'].map(uniq);
  const keys = uniq('key');
  if (controllers.length === 1 && keys.length === tunings.length * scenarios.length)
    return [{ controller: controllers[0], tuning: tunings.join(','), scenario: scenarios.join(',') }];
  return keys.map((k) => {
    const c = cells.find((x) => x.key === k);
    return { controller: c.controllerName, tuning: c.tuningName, scenario: c.scenarioName };
  });
}

// Before any bench job: this gate's name is no other gate.yml call's in any workflow of the
// repository, or both would write the same comment and check run on the PR's commit.
function uniqueGate(opts) {
  const gate = gateIdentity({ config: opts.config, matrix: opts.matrix, name: opts['gate-name'] });
  const { problems, unchecked } = checkGateIdentity({ root: process.cwd(), gate, workflowRef: opts.workflow });
  for (const c of unchecked)
    console.error(
      neutralizeCommands(
        `tailgate plan: ${c.file} job ${shown(c.job, 80)}: its gate.yml ${c.unknown.join(', ')} is set at run time, so its gate's name is not checked against this one ("${gate}")`,
      ),
    );
  if (problems.length) throw new InputError('two gates would share one name', { details: problems });
  return gate;
}
