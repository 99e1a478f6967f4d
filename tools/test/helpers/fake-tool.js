// A fake executable for a test of process orchestration (never a stand-in for the
// system under test): `script` as <name> in a fresh folder put first on PATH, with `env`
// set; PATH and env restored after `use(bin)`, whatever it does.
import { writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { scratchDir } from './scratch.js';

export async function withFakeTool(name, script, env, use) {
  const bin = scratchDir(`tg-fake-${name}-`);
  writeFileSync(join(bin, name), script, { mode: 0o755 });
  const saved = { ...process.env };
  Object.assign(process.env, { PATH: `${bin}${delimiter}${process.env.PATH}`, ...env });
  try {
    return await use(bin);
  } finally {
    process.env = saved;
  }
}
