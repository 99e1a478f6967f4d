// A gate's identity: the one name its artifacts, download patterns, sticky-comment marker
// and check run carry. Two calls of gate.yml that can run on one commit (a monorepo with a
// bench.yaml per service, each with a `pr` matrix; or two workflow files) must not share
// it, or whichever gate publishes last replaces the other's comment and check: the check
// run and the comment belong to the PR's commit, not to one workflow file. The identity
// is the explicit `name` input, else the matrix alone for the default bench.yaml (so a
// repository with one config keeps the check names its branch protection requires:
// `tailgate`, `tailgate (pr-failover)`), else the config's path and the matrix:
// services/api/bench.yaml + pr -> services-api.pr.
import { readFileSync, readdirSync } from 'node:fs';
import { join, posix } from 'node:path';
import { parse } from 'yaml';
import { InputError } from '../errors.js';
import { shown } from '../names.js';

// '_' is in no identity: artifact names are <round>-results_<gate>_<cell>, so one gate's
// pattern never picks up another's. Lower case, digits, '.' and '-', as a matrix name, but
// up to 80 characters so that a service's path fits beside its matrix.
export const GATE_NAME = /^[a-z0-9]([a-z0-9.-]{0,78}[a-z0-9])?$/;
export const DEFAULT_CONFIG = 'bench.yaml';

/** The identity of the gate of `config` and `matrix`, or `name` when given. */
export function gateIdentity({ config = DEFAULT_CONFIG, matrix = 'pr', name = '' } = {}) {
  if (name) {
    if (!GATE_NAME.test(name))
      throw new InputError(
        `gate.yml input name: "${shown(name, 90)}" is not a gate name: lower-case letters, digits, '.' and '-', at most 80, matching ${GATE_NAME.source}`,
      );
    return name;
  }
  const path = posix.normalize(String(config).replaceAll('\\', '/')).replace(/^(\.\/)+/, '');
  if (path === DEFAULT_CONFIG) return matrix;
  // services/api/bench.yaml -> services/api; perf.yaml -> perf.
  const stem = path.replace(/\.ya?ml$/i, '').replace(/(^|\/)bench$/, '') || path;
  const slug = stem
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  const id = `${slug}.${matrix}`;
  if (!slug || !GATE_NAME.test(id))
    throw new InputError(
      `gate.yml inputs config "${shown(config, 90)}" and matrix "${shown(matrix, 50)}": the gate's name "${shown(id, 90)}" does not match ${GATE_NAME.source} (at most 80 characters); give the call a shorter \`name\` input`,
    );
  return id;
}

const GATE_YML = /(^|\/)\.github\/workflows\/gate\.ya?ml(@[^\s]*)?$/;
const INPUTS = ['config', 'matrix', 'name'];
const DEFAULTS = { config: DEFAULT_CONFIG, matrix: 'pr', name: '' };

/**
 * The calls of tailgate's gate.yml in one workflow's text: [{ job, config, matrix, name,
 * gate }] where every input is written out; a call whose inputs are expressions
 * (`${{ matrix.m }}`) cannot be named before it runs: { job, unknown: [inputs] }.
 */
export function gateCalls(text, file) {
  let doc;
  try {
    doc = parse(text);
  } catch (err) {
    throw new InputError(`${file}: not YAML (${shown(err.message.split('\n')[0], 200)})`);
  }
  const jobs = doc && typeof doc.jobs === 'object' ? doc.jobs : {};
  const calls = [];
  for (const [job, spec] of Object.entries(jobs ?? {})) {
    if (typeof spec?.uses !== 'string' || !GATE_YML.test(spec.uses.trim())) continue;
    const given = spec.with && typeof spec.with === 'object' ? spec.with : {};
    const inputs = Object.fromEntries(INPUTS.map((k) => [k, given[k] === undefined ? DEFAULTS[k] : String(given[k])]));
    const unknown = INPUTS.filter((k) => inputs[k].includes('${{'));
    if (unknown.length || spec.strategy) calls.push({ job, file, unknown: unknown.length ? unknown : ['strategy'] });
    else calls.push({ job, file, ...inputs, gate: gateIdentity(inputs) });
  }
  return calls;
}

/**
 * Problems (one line each, naming file, jobs and the rule) where another gate.yml call
 * would be gate `gate` too: both would write the same comment and check run on the PR's
 * commit (and, in one workflow, the same artifacts). `own`: the caller's workflow file.
 */
export function gateCollisions(calls, gate, own = null) {
  const same = calls.filter((c) => c.gate === gate);
  if (same.length < 2) return [];
  const where = same.map(
    (c) =>
      `${c.file} job ${shown(c.job, 80)} (config ${shown(c.config, 90)}, matrix ${shown(c.matrix, 50)}${c.name ? `, name ${c.name}` : ''}${c.file === own ? '; this workflow' : ''})`,
  );
  const files = new Set(same.map((c) => c.file)).size;
  return [
    `gate "${gate}" is called ${same.length} times${files > 1 ? ` in ${files} workflow files` : ''}: ${where.join('; ')} — a gate's name is its one check run and one comment per commit, whatever workflow runs it, so each would replace the other's; give each call its own \`name\` input (or its own config or matrix)`,
  ];
}

/** The caller's workflow file, from `github.workflow_ref` (owner/repo/.github/workflows/<file>@<ref>) or a path. */
export function workflowFileOf(workflowRef = '') {
  return /^(?:[^/]+\/[^/]+\/)?(\.github\/workflows\/[^/@]+\.ya?ml)(?:@.*)?$/.exec(workflowRef.trim())?.[1] ?? null;
}

/**
 * Every workflow file of the repository: any of them can run on the PR's commit, and the
 * check run and comment a gate's name selects are that commit's.
 */
export function workflowFilesOf(root) {
  try {
    return readdirSync(join(root, '.github', 'workflows'))
      .filter((f) => /\.ya?ml$/.test(f))
      .sort()
      .map((f) => `.github/workflows/${f}`);
  } catch {
    return [];
  }
}

/**
 * The plan stage's check, before any bench job: `gate` named by no other gate.yml call of
 * any workflow of the repository (`workflowRef`, the caller's, is named as "this
 * workflow"). -> { problems, unchecked: calls whose identity is an expression }.
 */
export function checkGateIdentity({ root, gate, workflowRef = '' }) {
  const calls = workflowFilesOf(root).flatMap((f) => gateCalls(readFileSync(join(root, f), 'utf8'), f));
  return {
    problems: gateCollisions(calls, gate, workflowFileOf(workflowRef)),
    unchecked: calls.filter((c) => c.unknown),
  };
}

/** The gate a sticky comment belongs to, from its marker on the first line; null if none. */
export function gateOfMarker(body) {
  const m = /^<!-- tailgate:sticky-comment(?::([a-z0-9.-]{1,80}))? -->(\n|$)/.exec(String(body ?? ''));
  if (!m) return null;
  return m[1] ?? 'pr';
}
