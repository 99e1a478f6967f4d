// The JSON Schemas in schemas/ are the contract; code validates against the same
// files editors use for completion, so they cannot drift apart.
import { createRequire } from 'node:module';
import { OPTIONS, SCHEMA_NAMES, inputsDigest, readSchemaText } from './schema-code.js';
import { packagePath } from './install.js';
import { closest } from './nearest.js';

const require = createRequire(import.meta.url);
// Loading ajv and compiling a schema cost ~0.25 s of CPU, every `tailgate ingest` (which
// checks the result it writes) and every command that reads a file; the package ships
// ajv's standalone code of each schema instead (schema-code.js), ~20 ms to load. Code is
// never loaded from a cache folder: a file there runs with the user's rights and its
// answers would replace the schema checks.
const cache = new Map();
let ajv;

// Each file read and parsed once: cli/options.js takes two bounds from bench's at start-up,
// and validation compiles the same file.
const texts = new Map();
const parsed = new Map();
const readText = (name) => {
  if (!texts.has(name)) texts.set(name, readSchemaText(name));
  return texts.get(name);
};
const readSchema = (name) => {
  if (!parsed.has(name)) parsed.set(name, JSON.parse(readText(name)));
  return parsed.get(name);
};

export function schemaValidator(name) {
  if (!cache.has(name)) cache.set(name, builtValidator(name) ?? compileValidator(name));
  return cache.get(name);
}

/** The validator the package ships for the schema as it is now, or null: none built, or
 *  built from another schema text, ajv or options (a schema edited since the build). */
export function builtValidator(name) {
  if (!SCHEMA_NAMES.includes(name)) return null;
  let built;
  try {
    built = require(`./validators/${name}.cjs`);
  } catch {
    return null;
  }
  return built.inputs === inputsDigest(readText(name)) ? built : null;
}

/** ajv's validator of schemas/<name>.schema.json, compiled now. */
export function compileValidator(name) {
  ajv ??= new (require('ajv'))(OPTIONS);
  return ajv.compile(readSchema(name));
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
