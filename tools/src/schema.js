// The JSON Schemas in schemas/ are the contract; code validates against the same
// files editors use for completion, so they cannot drift apart.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { packagePath } from './install.js';
import { closest } from './nearest.js';

const require = createRequire(import.meta.url);
const SCHEMA_DIR = new URL('../../schemas/', import.meta.url);
// verbose: a pattern error carries its schema, whose patternErrorMessage (the keyword
// editors show) says the rule in words instead of the regular expression. No optimising
// pass over the generated code: it checks the same, and compiling result.schema.json took
// ~0.1 s less of every `tailgate ingest` (~0.2 s with the pass).
const OPTIONS = { allErrors: true, strict: false, verbose: true, code: { optimize: false, source: true } };
// Loading ajv and compiling a schema cost ~0.25 s of CPU, every `tailgate ingest` (which
// checks the result it writes) and every command that reads a file. So the first compile
// of a schema writes ajv's standalone code of it here, named by a digest of the schema
// text, ajv's version and the options; later runs load that (~20 ms) and never ajv.
// Stale files are never read (another digest); a folder tailgate cannot write just means
// compiling each time.
const CACHE_DIR = new URL('../../.tools/cache/schemas/', import.meta.url);
const cache = new Map();
let ajv;

// Each file read and parsed once: cli/options.js takes two bounds from bench's at start-up,
// and validation compiles the same file.
const texts = new Map();
const parsed = new Map();
const readText = (name) => {
  if (!texts.has(name)) texts.set(name, readFileSync(new URL(`${name}.schema.json`, SCHEMA_DIR), 'utf8'));
  return texts.get(name);
};
const readSchema = (name) => {
  if (!parsed.has(name)) parsed.set(name, JSON.parse(readText(name)));
  return parsed.get(name);
};

export function schemaValidator(name) {
  if (!cache.has(name)) cache.set(name, cachedValidator(name) ?? compileValidator(name, { keep: true }));
  return cache.get(name);
}

function cacheFile(name) {
  const digest = createHash('sha256')
    .update(`${require('ajv/package.json').version}\0${JSON.stringify(OPTIONS)}\0${readText(name)}`)
    .digest('hex')
    .slice(0, 16);
  return fileURLToPath(new URL(`${name}-${digest}.cjs`, CACHE_DIR));
}

/** The validator kept in the cache for the schema as it is now, or null. */
export function cachedValidator(name) {
  try {
    return require(cacheFile(name));
  } catch {
    return null;
  }
}

/** ajv's validator of schemas/<name>.schema.json; keep: and write its code to the cache. */
export function compileValidator(name, { keep = false } = {}) {
  ajv ??= new (require('ajv'))(OPTIONS);
  const validate = ajv.compile(readSchema(name));
  if (keep) {
    try {
      keepCode(cacheFile(name), require('ajv/dist/standalone').default(ajv, validate));
    } catch {
      /* not kept: compiled again next time */
    }
  }
  return validate;
}

// Whole or not at all: a temporary name, then a rename, so a run beside this one reads
// either no file or this one.
function keepCode(file, code) {
  mkdirSync(CACHE_DIR, { recursive: true });
  const tmp = `${file}.tmp-${process.pid}`;
  try {
    writeFileSync(tmp, code);
    renameSync(tmp, file);
  } catch (err) {
    try {
      unlinkSync(tmp);
    } catch {
      /* never written */
    }
    throw err;
  }
}

/** A number's { min, max } as the schema writes them ('definitions/scenario/properties/rate'):
 *  a flag accepts what the file does. */
export function schemaBounds(name, pointer) {
  const node = pointer.split('/').reduce((o, k) => o?.[k], readSchema(name));
  if (!Number.isFinite(node?.minimum) || !Number.isFinite(node?.maximum))
    throw new Error(`schemas/${name}.schema.json has no minimum and maximum at ${pointer}`);
  return { min: node.minimum, max: node.maximum };
}

/** Ajv errors -> [{path: [...], message, keyOf}] without the if/then noise. */
export function schemaProblems(name, value) {
  const validate = schemaValidator(name);
  if (validate(value)) return [];
  const out = [];
  for (const e of validate.errors) {
    if (e.keyword === 'if') continue;
    const path = e.instancePath.split('/').slice(1).map(unescape);
    if (e.keyword === 'additionalProperties') {
      out.push({
        path: [...path, e.params.additionalProperty],
        keyOf: true,
        message: unknownField(name, e),
      });
    } else if (e.keyword === 'enum') {
      out.push({ path, message: `must be one of ${e.params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}` });
    } else if (e.keyword === 'const') {
      out.push({ path, message: `must be ${JSON.stringify(e.params.allowedValue)}` });
    } else if (e.keyword === 'propertyNames') {
      out.push({
        path: [...path, e.params.propertyName],
        keyOf: true,
        message: 'names must be lowercase letters, digits, "." or "-" (max 40 characters)',
      });
    } else if (e.keyword === 'pattern' && e.parentSchema?.patternErrorMessage) {
      out.push({
        path,
        message: `must be ${e.parentSchema.patternErrorMessage}, not ${JSON.stringify(String(e.data).slice(0, 40))}`,
      });
    } else if (e.keyword === 'type' && e.parentSchema?.patternErrorMessage) {
      // A bare `30` where a duration goes: the rule in words, as a wrong pattern gets it.
      out.push({
        path,
        message: `must be ${e.parentSchema.patternErrorMessage}, not ${JSON.stringify(e.data)?.slice(0, 40)}`,
      });
    } else if (e.keyword === 'pattern' && e.parentSchema?.description) {
      out.push({ path, message: `${e.message} (${e.parentSchema.description})` });
    } else if (e.keyword === 'pattern' && /propertyNames/.test(e.schemaPath)) {
      continue; // reported once by the propertyNames error above
    } else {
      out.push({ path, message: e.message });
    }
  }
  return dedupe(out);
}

// A misspelt key names the valid one nearest to it (the schema's own properties at that
// place), and the schema where the package keeps it.
function unknownField(name, e) {
  const file = packagePath(`schemas/${name}.schema.json`);
  const near = closest(e.params.additionalProperty, Object.keys(e.parentSchema?.properties ?? {}));
  return near ? `unknown field — did you mean "${near}"? (see ${file})` : `unknown field (check spelling; see ${file})`;
}

function unescape(seg) {
  return seg.replace(/~1/g, '/').replace(/~0/g, '~');
}

function dedupe(problems) {
  const seen = new Set();
  return problems.filter((p) => {
    const k = `${p.path.join('.')}|${p.message}`;
    return seen.has(k) ? false : seen.add(k);
  });
}
