// Names that become folder names, file names or chart titles (profiles, controllers,
// tunings, scenarios, cells) come from files others wrote. They are checked here, once,
// against one strict pattern, so no value can climb out of its folder or become code.
import { isAbsolute, relative, resolve } from 'node:path';
import { InputError } from './errors.js';

export const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** Whether a value passes the name rule. */
export function isName(value) {
  return typeof value === 'string' && NAME.test(value) && !value.includes('..');
}

/** A value from a file for a message: printable ASCII only (others shown as '?'), cut at `max`. */
export function shown(value, max = 300) {
  return String(value)
    .slice(0, max)
    .replace(/[^\x20-\x7e]/g, '?');
}

/** Returns the name, or throws naming where it came from and the rule. */
export function checkName(value, where) {
  if (!isName(value)) {
    throw new InputError(
      `${where}: ${typeof value === 'string' ? `"${shown(value, 60)}"` : typeof value} is not a valid name; names must match ${NAME.source} and contain no ".."`,
    );
  }
  return value;
}

/** A cell key "controller/tuning/scenario" with each part a valid name. */
export function checkCellKey(key, where) {
  const parts = String(key).split('/');
  if (parts.length !== 3)
    throw new InputError(`${where}: cell "${String(key).slice(0, 80)}" is not <controller>/<tuning>/<scenario>`);
  parts.forEach((p, i) => checkName(p, `${where} (${['controller', 'tuning', 'scenario'][i]})`));
  return key;
}

/** The path of `parts` under `root`, refusing anything that resolves outside it. */
export function under(root, ...parts) {
  const full = resolve(root, ...parts);
  const rel = relative(resolve(root), full);
  if (rel.startsWith('..') || isAbsolute(rel)) throw new InputError(`${parts.join('/')}: resolves outside ${root}`);
  return full;
}
