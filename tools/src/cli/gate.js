// The PR gate as one command: compare → report → the comment artifact, the job summary,
// the confirmation matrix, and an exit code that fails closed. tools/ci/gate.sh only maps
// the workflow's environment to these flags; a laptop runs the same thing. The steps are
// functions: compare gets its options as values and hands back the verdict, report and
// the publishing steps get that verdict as a value; the command line is only this edge.
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXIT, InputError } from '../errors.js';
import { setOutputs, workflowCommand } from '../github-output.js';
import { makeDirIn, writeTextAtomic } from '../result/write.js';
import { annotationsFor, changedLines } from '../report/annotations.js';
import { jsonOption, withJson } from './json-out.js';
import { options as compareOptions, verdict as compareVerdict } from './compare.js';
import { reportVerdict } from './report.js';
import { commandFailed } from './main.js';
import { GATE_NAME } from '../plan/gate-identity.js';
import { adoptionAt, adoptionComment } from '../compare/adoption.js';
import { shown } from '../names.js';
import { didYouMean } from '../nearest.js';

export const summary = 'The PR gate: compare, report, comment artifact, confirmation matrix; fails closed';
export const usage = `Usage: tailgate gate --results <dir> [--mode baseline|paired|concurrent] [--base-ref <sha>]
                     [--base-results <dir>] [--confirm-results <dir>] [--matrix <name>] [--gate <name>]
                     [--run-url URL] [--out gate-out] [--json]

Compares every cell of --results against baselines read from the base commit (--mode
baseline, the default: --base-ref is required) or base against head from one runner
(paired, or concurrent: a duet leaves base/ and head/ the same way; the base commit's
gate rules apply when --base-ref names it, so a PR cannot loosen them). Without
--base-results, paired reads <results>/base and <results>/head. --confirm-results: the
confirmation round's results, laid out like --results.

Writes <out>/verdict.json, <out>/comment/{comment.md,meta.json} (the artifact the
commenting workflow posts), <out>/charts/, <out>/confirm.json; appends the comment to
$GITHUB_STEP_SUMMARY and confirm=<matrix> to $GITHUB_OUTPUT (printed where unset).

Every cell the plan of record names is judged (--matrix: the base commit's matrix plus the
cells the head adds): one with no results is inconclusive, named; results no plan names
are not judged, named; base cells the head no longer defines are named as removed.

Exit: the verdict's (0 pass · 1 regression · 3 inconclusive), 2/4 when no verdict could
be made. The PR that adopts tailgate — its --base-ref has no config file and no workflow
calling gate.yml, and no cell had anything to compare with — exits 0, its comment
"tailgate adopted: the next PR is compared with this one" (verdict.json stays compare's).
When cells need a confirmation round: 3 (1 if a regression is already decided) with a
non-empty confirm matrix — the first look is not the verdict of record, the
round's gate is. Fails closed: once a verdict exists, a step that fails keeps a failing
verdict's code and turns a passing one into 4 — never 0.

--json: stdout is <out>/verdict.json's document and nothing else (the table, step outputs
and workflow commands go to stderr); nothing on stdout when no verdict was made. The exit
code is the gate's, as above (it can differ from the document's exitCode: fails closed).`;
export const options = {
  results: { type: 'string' },
  mode: { type: 'string', default: 'baseline' },
  'base-ref': { type: 'string' },
  'base-results': { type: 'string' },
  'confirm-results': { type: 'string' },
  matrix: { type: 'string' },
  // The gate's name (plan's gate output): its comment's marker and check run; the matrix's by default.
  gate: { type: 'string' },
  'run-url': { type: 'string' },
  out: { type: 'string', default: 'gate-out' },
  ...jsonOption,
};

const MODES = ['baseline', 'paired', 'concurrent'];
const NO_CONFIRM = '{"include":[]}';

export function run(opts, positionals, io) {
  return withJson(opts.json, io, (out) => gate(opts, positionals, out));
}

// -> { code, doc: the verdict as written, null when compare made none }.
async function gate(opts, positionals, { log, err: warn, env = process.env }) {
  checkOptions(opts, positionals);
  const out = opts.out;
  makeDirIn(join(out, '..'), out);
  makeDirIn(out, join(out, 'comment'));
  makeDirIn(out, join(out, 'charts'));
  const files = {
    verdict: join(out, 'verdict.json'),
    comment: join(out, 'comment', 'comment.md'),
    meta: join(out, 'comment', 'meta.json'),
    confirm: join(out, 'confirm.json'),
    charts: join(out, 'charts'),
  };
  let compared;
  try {
    compared = compareVerdict(compareRequest(opts, files.verdict), [], { log, err: warn });
  } catch (err) {
    const code = commandFailed('compare', err, warn);
    log(
      workflowCommand('error', `tailgate compare wrote no verdict (exit ${code}): bad input or infrastructure error`),
    );
    return { code: code === EXIT.OK ? EXIT.INFRA : code, doc: null };
  }
  const { code } = compared;
  // The verdict as verdict.json holds it (JSON's numbers, no undefined fields): what the
  // artifact carries is what the comment and the annotations are made from.
  const doc = JSON.parse(JSON.stringify(compared.doc));
  // After the verdict nothing may turn it green: each step after it names why it failed.
  const closed = (why) => {
    log(
      workflowCommand(
        'error',
        `${why} — the gate fails closed (verdict exit ${code}${code === EXIT.OK ? ', reported as 4' : ''})`,
      ),
    );
    return { code: code === EXIT.OK ? EXIT.INFRA : code, doc };
  };
  const { made, why: reportFailed } = report(opts, files, doc, warn);
  const notMade = reportFailed ?? annotate(opts, files, doc, made.meta);
  const adopted = notMade ? {} : adopting(opts, doc, files, made, env);
  const failed = notMade ?? adopted.why ?? appendSummary(env, adopted.comment ?? made.comment);
  if (failed) return closed(failed);
  const { matrix, why } = opts['confirm-results'] ? { matrix: NO_CONFIRM } : confirmMatrix(made.confirm);
  if (why) return closed(why);
  try {
    setOutputs([['confirm', matrix]], { env, write: (t) => log(t.trimEnd()) });
  } catch {
    return closed('could not write the step output');
  }
  // A first look that asks for a round is not a verdict: never green, so a required gate
  // job cannot merge a regression still pending (the round's gate is the verdict of record).
  if (matrix !== NO_CONFIRM) {
    log(workflowCommand('notice', `a confirmation round with fresh runs is needed before the verdict: ${matrix}`));
    return { code: code === EXIT.OK ? EXIT.INCONCLUSIVE : code, doc };
  }
  if (adopted.comment) {
    log(
      workflowCommand(
        'notice',
        `tailgate adopted (${adopted.because}): exit 0 — the next PR is compared with this one`,
      ),
    );
    return { code: EXIT.OK, doc };
  }
  return { code, doc };
}

// The PR that adopts tailgate (compare/adoption.js): every cell had nothing to compare with
// because the base has no tailgate config at all. Its comment and artifact say so and pass
// (meta exitCode 0: a success check); verdict.json stays compare's. -> { comment, because }
// when adopted, { why } when the artifact could not be rewritten, {} otherwise.
function adopting(opts, doc, files, made, env) {
  if (!opts['base-ref'] || doc.overall !== 'no-baseline') return {};
  const configFile = env.TAILGATE_CONFIG || 'bench.yaml';
  const { adopted, why } = adoptionAt({ ref: opts['base-ref'], configFile });
  if (!adopted) return {};
  try {
    const comment = adoptionComment(made.comment, { ref: opts['base-ref'], configFile });
    writeTextAtomic(files.comment, comment, { force: true });
    const meta = JSON.parse(readFileSync(files.meta, 'utf8'));
    writeTextAtomic(files.meta, JSON.stringify({ ...meta, exitCode: EXIT.OK }), { force: true });
    return { comment, because: why };
  } catch {
    return { why: 'could not write the adoption comment' };
  }
}

function checkOptions(opts, positionals) {
  if (positionals.length) throw new InputError(`gate takes no positional arguments\n\n${usage}`);
  if (!opts.results) throw new InputError(`gate needs --results <dir>\n\n${usage}`);
  if (opts.gate !== undefined && !GATE_NAME.test(opts.gate))
    throw new InputError(`--gate: "${shown(opts.gate, 90)}" is not a gate name (${GATE_NAME.source})`);
  if (!MODES.includes(opts.mode))
    throw new InputError(
      `--mode: "${String(opts.mode).slice(0, 40)}" is not one of ${MODES.join(', ')}${didYouMean(opts.mode, MODES)}`,
    );
  if (opts.mode === 'baseline' && !opts['base-ref'])
    throw new InputError('--mode baseline needs --base-ref <sha>: the baselines are read from the base commit');
}

// The comment, charts, the artifact's meta and the confirmation matrix, from the verdict.
// report's terminal table is not the gate's output. -> { made } or { why } it failed.
function report(opts, files, doc, warn) {
  let made;
  try {
    made = reportVerdict(
      doc,
      { markdown: files.comment, charts: files.charts, meta: files.meta, confirmMatrix: files.confirm, force: true },
      { runUrl: opts['run-url'], gate: opts.gate },
      { log: () => {} },
    );
  } catch (err) {
    return { why: `tailgate report failed after the verdict (exit ${commandFailed('report', err, warn)})` };
  }
  if (!made.comment) return { why: 'tailgate report wrote no comment' };
  return { made };
}

// The lines of the PR that set what the verdict names, for the check run's annotations.
function annotate(opts, files, doc, meta) {
  if (!opts['base-ref']) return null;
  try {
    const annotations = annotationsFor(doc, changedLines(opts['base-ref']));
    if (annotations.length) writeTextAtomic(files.meta, JSON.stringify({ ...meta, annotations }), { force: true });
    return null;
  } catch {
    return 'could not add the annotations to the comment artifact';
  }
}

function appendSummary(env, comment) {
  if (!env.GITHUB_STEP_SUMMARY) return null;
  try {
    appendFileSync(env.GITHUB_STEP_SUMMARY, comment);
    return null;
  } catch {
    return 'could not append the job summary';
  }
}

// The first look's confirmation matrix ({"include": []} when no cell needs a round).
function confirmMatrix(m) {
  if (!Array.isArray(m?.include)) return { why: 'the confirmation matrix is not {"include": [...]}' };
  return { matrix: JSON.stringify(m) };
}

/**
 * The compare the mode asks for, as compare's options (values, its flags' defaults
 * included): what `tailgate compare` would parse from its command line.
 */
export function compareRequest(opts, verdictFile) {
  const request = (picked) => {
    const r = { ...picked, out: verdictFile, force: true };
    for (const [k, o] of Object.entries(compareOptions)) if (!(k in r) && o.default !== undefined) r[k] = o.default;
    return r;
  };
  const matrix = opts.matrix ? { matrix: opts.matrix } : {};
  if (opts.mode === 'baseline') {
    const confirm = opts['confirm-results'] ? { 'confirm-results': opts['confirm-results'] } : {};
    return request({ ...matrix, results: opts.results, 'base-ref': opts['base-ref'], ...confirm });
  }
  // paired-cell.sh and duet-cell.sh write <results>/base and <results>/head.
  const base = opts['base-results'] ?? join(opts.results, 'base');
  const head = opts['base-results'] ? opts.results : join(opts.results, 'head');
  const c = opts['confirm-results'];
  return request({
    ...matrix,
    // The gate's rules come from the base commit when there is one (a PR cannot loosen them).
    ...(opts['base-ref'] ? { 'gate-ref': opts['base-ref'] } : {}),
    paired: true,
    'base-results': base,
    'head-results': head,
    ...(c ? { 'confirm-base-results': join(c, 'base'), 'confirm-head-results': join(c, 'head') } : {}),
  });
}
