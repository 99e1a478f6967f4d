// Reading the JSON files every stage exchanges: bounded in size, errors that name the
// file and never echo its content.
import { lstatSync, readFileSync, statSync } from 'node:fs';
import { InputError } from '../errors.js';

// Results and baselines are a few MB at most; a larger file is not one of ours.
const MAX_JSON_BYTES = 256 << 20;

export function readJsonFile(file, text) {
  const raw = text ?? readBounded(file, MAX_JSON_BYTES, statSync);
  try {
    return JSON.parse(raw);
  } catch (err) {
    throw new InputError(`${file}: not valid JSON (${err.message.replace(/"[^"]*"/g, '"…"').slice(0, 120)})`);
  }
}

/** A text artifact of a run (a captured proxy config): a regular file, not a link out
 *  of the results folder, bounded in size. */
export function readTextFile(file, { maxBytes = 64 << 20 } = {}) {
  return readBounded(file, maxBytes, lstatSync);
}

// `stat`: statSync follows a link to its target, lstatSync sees the link itself (which is
// then not a regular file).
function readBounded(file, maxBytes, stat) {
  try {
    const st = stat(file);
    if (!st.isFile()) throw Object.assign(new Error(), { code: 'not a regular file' });
    if (st.size > maxBytes) throw Object.assign(new Error(), { code: `larger than ${maxBytes} bytes` });
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new InputError(`${file}: cannot read (${err.code})`);
  }
}
