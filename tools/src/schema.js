// The JSON Schemas in schemas/ are the contract; code validates against the same
// files editors use for completion, so they cannot drift apart.
import { readFileSync } from 'node:fs';
import Ajv from 'ajv';

const SCHEMA_DIR = new URL('../../schemas/', import.meta.url);
// verbose: a pattern error carries its schema, whose patternErrorMessage (the keyword
// editors show) says the rule in words instead of the regular expression. No optimising
// pass over the generated code: it checks the same, and compiling result.schema.json took
// ~0.1 s less of every `tailgate ingest` (~0.2 s with the pass).
const ajv = new Ajv({ allErrors: true, strict: false, verbose: true, code: { optimize: false } });
const cache = new Map();

// Each file read and parsed once: cli/options.js takes two bounds from bench's at start-up,
// and validation compiles the same file.
const parsed = new Map();
const readSchema = (name) => {
  if (!parsed.has(name)) parsed.set(name, JSON.parse(readFileSync(new URL(`${name}.schema.json`, SCHEMA_DIR), 'utf8')));
  return parsed.get(name);
};

export function schemaValidator(name) {
  if (!cache.has(name)) cache.set(name, ajv.compile(readSchema(name)));
  return cache.get(name);
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
        message: `unknown field (check spelling; see schemas/${name}.schema.json)`,
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
