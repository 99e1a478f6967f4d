// Issue 68's papercut "`doctor` says pass --image (no command has that flag)", as a class:
// a message that tells the reader to pass, give or add a --flag names one a tailgate
// command takes (a flag of another tool is named with that tool's command, not as advice).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { allCommands, GLOBAL_OPTIONS } from '../../src/cli/main.js';

const SRC = new URL('../../src/', import.meta.url).pathname;

function filesUnder(dir) {
  return readdirSync(dir).flatMap((e) => {
    const p = join(dir, e);
    return statSync(p).isDirectory() ? (e === 'validators' ? [] : filesUnder(p)) : p.endsWith('.js') ? [p] : [];
  });
}

test("hint flags: every 'pass/with/give/add/set --flag' a message says is a flag of a tailgate command", async () => {
  const flags = new Set(Object.keys(GLOBAL_OPTIONS));
  for (const [, cmd] of await allCommands()) for (const f of Object.keys(cmd.options ?? {})) flags.add(f);
  const said = [];
  for (const file of filesUnder(SRC))
    for (const m of readFileSync(file, 'utf8').matchAll(/\b(?:pass|with|give|add|set|use) --([a-z][a-z-]*)/g))
      said.push([file.slice(SRC.length), m[1]]);
  assert.ok(said.length >= 10, `${said.length} hints found`);
  // "--confirm-…": a family of flags, named by its prefix.
  const known = (f) => (f.endsWith('-') ? [...flags].some((x) => x.startsWith(f)) : flags.has(f));
  const unknown = said.filter(([, f]) => !known(f));
  assert.deepEqual(unknown, [], 'a hint names a flag no tailgate command takes');
});
