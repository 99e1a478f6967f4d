// No code from a writable cache by name (issue 59, item 8): the schema validators are the
// package's own files, built from its schemas by tools/scripts/build-validators.js; what
// lies under .tools/cache (restored by actions/cache, shared between runs) is never run.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { test } from 'node:test';
import { OPTIONS, SCHEMA_NAMES, VALIDATOR_DIR, readSchemaText, validatorCode } from '../../src/schema-code.js';
import { scratchDir } from '../helpers/scratch.js';

const ROOT = new URL('../../../', import.meta.url).pathname;
const CLI = join(ROOT, 'tools', 'bin', 'tailgate.js');
const require = createRequire(import.meta.url);

test('no code from a writable cache: the validators shipped in tools/src/validators are what the build script makes of the schemas now', () => {
  const schemas = readdirSync(join(ROOT, 'schemas'))
    .filter((f) => f.endsWith('.schema.json'))
    .map((f) => f.replace('.schema.json', ''));
  assert.deepEqual([...SCHEMA_NAMES].sort(), schemas.sort(), 'a schema without a built validator, or the reverse');
  const built = readdirSync(VALIDATOR_DIR).sort();
  assert.deepEqual(
    built,
    SCHEMA_NAMES.map((n) => `${n}.cjs`),
  );
  const stale = SCHEMA_NAMES.filter(
    (n) => readFileSync(new URL(`${n}.cjs`, VALIDATOR_DIR), 'utf8') !== validatorCode(n),
  );
  assert.deepEqual(stale, [], 'not built from the schemas as they are: run node tools/scripts/build-validators.js');
  const check = spawnSync(process.execPath, [join(ROOT, 'tools/scripts/build-validators.js'), '--check'], {
    encoding: 'utf8',
  });
  assert.equal(check.status, 0, check.stderr);
});

test('no code from a writable cache: a validator planted under .tools/cache/schemas is never run, and the schema still refuses', () => {
  // Where and under the name the cache kept the bench validator before (144cf63): planted,
  // it wrote a marker and accepted anything.
  const digest = createHash('sha256')
    .update(`${require('ajv/package.json').version}\0${JSON.stringify(OPTIONS)}\0${readSchemaText('bench')}`)
    .digest('hex')
    .slice(0, 16);
  const dir = join(ROOT, '.tools', 'cache', 'schemas');
  const planted = join(dir, `bench-${digest}.cjs`);
  const marker = join(scratchDir('tg-planted-'), 'ran');
  const bad = join(scratchDir('tg-bad-'), 'bench.yaml');
  writeFileSync(bad, 'apiVersion: tailgate/v1\nkind: Bench\nbogus: 1\n');
  mkdirSync(dir, { recursive: true });
  const was = existsSync(planted) ? readFileSync(planted) : null; // an older tailgate's own, put back
  writeFileSync(
    planted,
    `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran'); module.exports = () => true;\n`,
  );
  try {
    const r = spawnSync(process.execPath, [CLI, 'validate', '--config', bad], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(existsSync(marker), false, 'the planted file ran');
    assert.equal(r.status, 2, r.stdout + r.stderr);
    assert.match(r.stdout + r.stderr, /bogus/);
  } finally {
    if (was) writeFileSync(planted, was);
    else rmSync(planted, { force: true });
  }
});

test('no code from a writable cache: no module of tools/src names the cache folder, and a build of another schema text is not loaded', async () => {
  const offenders = [];
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (p.endsWith('.js') && /\.tools\/cache|tools', 'cache/.test(readFileSync(p, 'utf8'))) offenders.push(p);
    }
  };
  walk(join(ROOT, 'tools', 'src'));
  assert.deepEqual(offenders, []);
  // A built file's digest covers its schema's text: one built from other text is refused
  // (compiled instead), so a schema edited since the build is never checked by old code.
  const { builtValidator } = await import('../../src/schema.js');
  const mod = require(new URL('history.cjs', VALIDATOR_DIR).pathname);
  assert.equal(builtValidator('history'), mod);
  const saved = mod.inputs;
  mod.inputs = 'another schema text';
  try {
    assert.equal(builtValidator('history'), null);
  } finally {
    mod.inputs = saved;
  }
  assert.equal(builtValidator('../../package'), null);
});
