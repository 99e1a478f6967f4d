// A fake executable for a test of process orchestration (never a stand-in for the
// system under test): `script` as <name> in a fresh folder put first on PATH, with `env`
// set; PATH and env restored after `use(bin)`, whatever it does.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

export async function withFakeTool(name, script, env, use) {
  const bin = mkdtempSync(join(tmpdir(), `tg-fake-${name}-`));
  writeFileSync(join(bin, name), script, { mode: 0o755 });
  const saved = { ...process.env };
  Object.assign(process.env, { PATH: `${bin}${delimiter}${process.env.PATH}`, ...env });
  try {
    return await use(bin);
  } finally {
    process.env = saved;
  }
}
