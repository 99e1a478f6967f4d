#!/usr/bin/env node
// Writes ajv's standalone validator of each schema into tools/src/validators/, the code
// schema.js loads (tools/src/schema-code.js says why). Run it after changing a schema or
// ajv; `--check` writes nothing and exits 1 naming each file that is not what it would
// write (the unit test validators-built.test.js checks the same).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SCHEMA_NAMES, VALIDATOR_DIR, validatorCode } from '../src/schema-code.js';

const check = process.argv.includes('--check');
const stale = [];
for (const name of SCHEMA_NAMES) {
  const file = fileURLToPath(new URL(`${name}.cjs`, VALIDATOR_DIR));
  const code = validatorCode(name);
  let now = null;
  try {
    now = readFileSync(file, 'utf8');
  } catch {
    /* not built yet */
  }
  if (now === code) continue;
  stale.push(file);
  if (!check) writeFileSync(file, code);
}
const rel = (f) => f.slice(fileURLToPath(new URL('../../', import.meta.url)).length);
if (check && stale.length) {
  console.error(`build-validators: not built from the schemas as they are: ${stale.map(rel).join(', ')}`);
  console.error('run: node tools/scripts/build-validators.js');
  process.exit(1);
}
console.log(stale.length ? `build-validators: wrote ${stale.map(rel).join(', ')}` : 'build-validators: all current');
