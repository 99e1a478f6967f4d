// Where tailgate finds its external tools: PATH first (the Makefile puts the
// project-local .tools/bin, where `make setup` installs the pinned k6, kind and helm,
// at its front; tests put fake executables there), then .tools/bin as a fallback.
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const LOCAL_BIN = join(ROOT, '.tools', 'bin');

export function toolEnv(extra = {}) {
  return { ...process.env, PATH: `${process.env.PATH}${delimiter}${LOCAL_BIN}`, ...extra };
}

// The first executable file of that name, as a shell's lookup finds it: a script tailgate
// runs by name then runs the very binary doctor and `setup --check` probed (a plain
// existence test stopped at a non-executable file or a folder the shell skips).
export function which(name) {
  if (name.includes('/')) return existsSync(name) ? name : null;
  for (const dir of [...(process.env.PATH ?? '').split(delimiter), LOCAL_BIN, '/usr/sbin', '/sbin']) {
    const p = join(dir, name);
    if (dir && executable(p)) return p;
  }
  return null;
}

function executable(p) {
  try {
    accessSync(p, constants.X_OK);
    return statSync(p).isFile();
  } catch {
    return false;
  }
}
