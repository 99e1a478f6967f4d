// `tailgate version`, as people type it beside `--version`: the package's version.
import { TAILGATE_VERSION } from '../version.js';
import { InputError } from '../errors.js';

export const summary = "Print tailgate's version (also: tailgate --version)";
export const usage = `Usage: tailgate version

Prints the version of this tailgate (its package.json), one line; --version does the same.`;
export const options = {};

export function run(opts, positionals) {
  if (positionals.length) throw new InputError(`version takes no positional arguments\n\n${usage}`);
  console.log(TAILGATE_VERSION);
  return 0;
}
