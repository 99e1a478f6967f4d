// docs/cli.md cannot drift from the CLI: every command and every flag it accepts (its
// parseArgs options, what --help documents) is in it; a flag added without a line in the
// reference fails here, naming it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { COMMANDS } from '../../src/cli/main.js';
import { runCli } from '../helpers/cli.js';

const DOC = readFileSync(new URL('../../../docs/cli.md', import.meta.url), 'utf8');

test('docs/cli.md names every command and every flag of each', async () => {
  await runCli(['--help']); // loads every command
  const missing = [];
  for (const [name, cmd] of Object.entries(COMMANDS)) {
    if (!DOC.includes(`tailgate ${name}`)) missing.push(`command ${name}`);
    for (const flag of Object.keys(cmd.options ?? {}))
      if (!DOC.includes(`--${flag}`)) missing.push(`tailgate ${name} --${flag}`);
  }
  assert.deepEqual(missing, [], 'docs/cli.md or a usage text is behind the CLI');
});

test('docs/config.md carries every field of schemas/bench.schema.json with its description (node tools/scripts/config-doc.js)', async () => {
  const { rendered } = await import('../../scripts/config-doc.js');
  const { text, next } = rendered();
  assert.ok(text === next, 'docs/config.md is behind the schema: run node tools/scripts/config-doc.js');
});
