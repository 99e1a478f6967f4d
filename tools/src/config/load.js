// bench.yaml -> validated, defaulted config. Every problem is reported at once,
// each with file:line:col, the field and the rule.
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { InfraError, InputError } from '../errors.js';
import { under } from '../names.js';
import { applyDefaults } from './defaults.js';
import { onceAtSource } from './derived.js';
import { normalise } from './normalise.js';
import { applyOverrides, valueOverrides } from './overrides.js';
import { schemaProblems } from '../schema.js';
import { semanticProblems } from './validate.js';
import { parseWithPositions, positionOf } from './yaml-positions.js';

const MAX_CONFIG_BYTES = 1 << 20;
// Problems listed with their position: a broken generated file can have tens of
// thousands, and locating each is a walk of the document.
const MAX_SHOWN = 50;

/**
 * One path for every bench.yaml: the file, its schema, the command-line overrides of the
 * matrix a run names (config/overrides.js: `overrides` as planMatrix takes them), the
 * defaults, the cross-reference checks, the numbers — each once, in that order.
 */
export function loadBench(file, { matrix, overrides } = {}) {
  let text;
  try {
    if (statSync(file).size > MAX_CONFIG_BYTES)
      throw Object.assign(new Error(), { code: `larger than ${MAX_CONFIG_BYTES} bytes` });
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const rule = `cannot read bench config (${err.code ?? err.message})`;
    throw located(new InputError(`${file}: ${rule}`), [{ file, field: null, rule }]);
  }
  return parseBench(text, file, { matrix, overrides });
}

/**
 * checks: the cross-reference rules (a test passes one that throws). onDisk false: the text
 * is not from a file on this disk (a base commit's, config/base-ref.js), so the files it
 * names are not resolved or read: the rules about them are the base commit's own business.
 */
export function parseBench(
  text,
  file = 'bench.yaml',
  { checks = semanticProblems, matrix, overrides, onDisk = true } = {},
) {
  const { doc, lineCounter } = parseWithPositions(text);
  if (doc.errors.length) {
    const found = doc.errors.map((e) => {
      const { line, col } = lineCounter.linePos(e.pos[0]);
      return { file, line, col, field: null, rule: `YAML syntax: ${e.message.split('\n')[0]}` };
    });
    const details = found.map((p) => `${p.file}:${p.line}:${p.col}: ${p.rule}`);
    throw located(new InputError(`${file}: not valid YAML`, { details }), found);
  }
  let raw;
  try {
    // Aliases are expanded with a budget: a few lines must not become gigabytes.
    raw = doc.toJS({ maxAliasCount: 100 }) ?? {};
  } catch (err) {
    throw new InputError(`${file}: YAML aliases expand too far (${err.message.split('\n')[0]}); write the values out`);
  }
  const { raw: overriddenRaw, flags: overridden } = applyOverrides(raw, matrix, overrides);
  // Each problem as { file, line, col, field, rule } (validate --json) and as a line.
  const locate = (p) => {
    const field = p.path.length ? p.path.join('.') : '(top level)';
    // A value from the command line has no line in the file: name the flag instead.
    const flags = overridden.filter((o) => p.from?.some((f) => f.join('.') === o.path.join('.')));
    if (flags.length) return { file, flags: flags.map((o) => o.flag), field, rule: p.message };
    const { line, col } = positionOf(doc, lineCounter, p.path, { keyOf: p.keyOf });
    return { file, line, col, field, rule: p.message };
  };
  const where = (l) =>
    l.flags
      ? `${file} with ${l.flags.join(' ')}: ${l.field}: ${l.rule}`
      : `${file}:${l.line}:${l.col}: ${l.field}: ${l.rule}`;
  const tooMany = sizeProblems(raw).map(locate);
  if (tooMany.length)
    throw located(new InputError(`${file}: too large to be a bench config`, { details: tooMany.map(where) }), tooMany);
  const problems = schemaProblems('bench', raw);
  const { config, semantic } = defaultAndCheck(overriddenRaw, file, { schemaValid: !problems.length, checks, onDisk });
  problems.push(...onceAtSource(problems, semantic));
  if (problems.length) {
    const more = problems.length - MAX_SHOWN;
    const shown = problems.slice(0, MAX_SHOWN).map(locate);
    const err = new InputError(`${file}: ${problems.length} problem${problems.length > 1 ? 's' : ''} in bench config`, {
      details: [...shown.map(where), ...(more > 0 ? [`… and ${more} more`] : [])],
    });
    throw located(err, shown, more);
  }
  try {
    normalise(config);
  } catch (err) {
    throw crashed('making its durations and percentages numbers (config/normalise.js)', file, err);
  }
  const loaded = { ...config, source: file };
  LOADED.set(loaded, {
    matrix,
    applied: overridden.length ? valueOverrides(overrides) : {},
    again: (m, o) => parseBench(text, file, { checks, matrix: m, overrides: o, onDisk }),
  });
  return loaded;
}

// How each loaded config was made, for a caller that brings its overrides later.
const LOADED = new WeakMap();

/**
 * cfg as `matrix` runs with `overrides` (planMatrix's): cfg itself when it was loaded with
 * them, else the same file through the same path with them (a caller that loaded the file
 * on its own first, as `tailgate migrate` does, gets what `run` gets).
 */
export function withOverrides(cfg, matrix, overrides) {
  const want = valueOverrides(overrides);
  const made = LOADED.get(cfg);
  const have = made && made.matrix === matrix ? made.applied : {};
  if (isDeepStrictEqual(want, have)) return cfg;
  if (!made) throw new Error(`overrides ${JSON.stringify(want)} need a config read by loadBench, not one made in code`);
  return made.again(matrix, overrides);
}

// Definitions per section: ours has 13 scenarios; a file with thousands is generated or
// broken, and checking each of them would cost seconds per thousand.
const MAX_ENTRIES = 500;

function sizeProblems(raw) {
  const sections = ['profiles', 'controllers', 'tunings', 'scenarios', 'matrices'];
  return sections
    .filter((s) => raw && typeof raw[s] === 'object' && Object.keys(raw[s] ?? {}).length > MAX_ENTRIES)
    .map((s) => ({
      path: [s],
      keyOf: true,
      message: `${Object.keys(raw[s]).length} entries, over the limit of ${MAX_ENTRIES}`,
    }));
}

// Files a bench.yaml names are relative to its own folder (an adopter's repository, not
// tailgate's package) and must stay inside it, links included.
function resolveFiles(config, file) {
  const problems = [];
  const base = dirname(resolve(file));
  for (const [name, c] of Object.entries(config?.controllers ?? {})) {
    if (typeof c.values !== 'string') continue;
    const path = ['controllers', name, 'values'];
    try {
      c.valuesFile = under(base, c.values);
      if (existsSync(c.valuesFile)) under(realpathSync(base), realpathSync(c.valuesFile));
    } catch {
      problems.push({ path, message: `${c.values} must stay inside ${base} (the folder of the bench config)` });
    }
  }
  return problems;
}

// Cross-reference rules run even when the schema failed, so a user sees every
// problem at once; a config too broken to default is reported by the schema alone.
// Files are resolved first: the catalog rules read a controller's values file. On a
// schema-valid file a check that throws is tailgate's bug, never a pass: exit 4, naming it.
function defaultAndCheck(raw, file, { schemaValid, checks, onDisk }) {
  let config;
  try {
    config = applyDefaults(raw);
  } catch (err) {
    if (schemaValid) throw crashed('applying the defaults', file, err);
    return { config: undefined, semantic: [] };
  }
  const files = onDisk ? resolveFiles(config, file) : [];
  try {
    return { config, semantic: [...files, ...checks(config)] };
  } catch (err) {
    if (schemaValid) throw crashed('the cross-reference checks (config/validate.js)', file, err);
    return { config, semantic: files };
  }
}

const crashed = (what, file, err) =>
  new InfraError(
    `${file}: ${what} failed on a schema-valid config (${String(err?.message ?? err)
      .split('\n')[0]
      .slice(0, 160)}); this is a tailgate bug — please report it with the file`,
  );

// The problems of a refused config as data, beside the lines an error prints.
function located(err, problems, more = 0) {
  return Object.assign(err, { problems, ...(more > 0 ? { moreProblems: more } : {}) });
}
