// The bench.yaml a command was pointed at (--config, TAILGATE_CONFIG, else ./bench.yaml).
// A repository that has none yet is the first thing a new user meets: the refusal says
// how to make one rather than the system's ENOENT.
import { existsSync } from 'node:fs';
import { InputError } from '../errors.js';
import { loadBench } from '../config/load.js';

/** loadBench(file, options), or exit 2 saying how to get a bench config when there is no file. */
export function loadConfig(file, options) {
  if (!existsSync(file)) {
    const rule =
      'cannot read bench config: no such file — run `npx tailgate init` to write one, or pass --config <file>';
    throw Object.assign(new InputError(`${file}: ${rule}`), { problems: [{ file, field: null, rule }] });
  }
  return loadBench(file, options);
}
