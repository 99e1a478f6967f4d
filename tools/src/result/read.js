// Reading the JSON files every stage exchanges: bounded in size, errors that name the
// file and never echo its content.
import { lstatSync, readFileSync, statSync } from 'node:fs';
import { InputError } from '../errors.js';

// Results and baselines are a few MB at most: the largest ingest can write is a 49-hour
// timeline (a row per second, ~200 bytes) plus 100k events, ~45 MB (ingest checks what it
// writes against this). A larger file is not one of ours.
export const MAX_JSON_BYTES = 64 << 20;

export function readJsonFile(file, text) {
  const raw = text ?? readBounded(file, MAX_JSON_BYTES, statSync);
  try {
    return JSON.parse(raw);
  } catch (err) {
    throw new InputError(`${file}: not valid JSON (${err.message.replace(/"[^"]*"/g, '"…"').slice(0, 120)})`);
  }
}

/** A text artifact of a run (a captured proxy config): a regular file, not a link out
 *  of the results folder, bounded in size. `follow`: a file the user names on the
 *  command line or in bench.yaml may be a link (its target is checked). */
export function readTextFile(file, { maxBytes = 64 << 20, follow = false } = {}) {
  return readBounded(file, maxBytes, follow ? statSync : lstatSync);
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
