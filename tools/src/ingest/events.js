// Fault events (pod killed, update applied, reload...) written by target drivers as
// JSON lines {"ts": <epoch ms>, "type": "...", ...}; merged onto the k6 clock.
import { readFileSync } from 'node:fs';
import { InputError } from '../errors.js';

export function readEvents(file) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new InputError(`${file}: cannot read events file (${err.code})`);
  }
  return text
    .split('\n')
    .filter(Boolean)
    .map((line, i) => {
      let e;
      try {
        e = JSON.parse(line);
      } catch {
        throw new InputError(`${file}:${i + 1}: not a JSON line`);
      }
      if (
        !e ||
        typeof e !== 'object' ||
        Array.isArray(e) ||
        !Number.isFinite(e.ts) ||
        typeof e.type !== 'string' ||
        !/^[a-z][a-z0-9-]{0,40}$/.test(e.type)
      ) {
        throw new InputError(
          `${file}:${i + 1}: an event is an object with "ts" (epoch milliseconds, a finite number) and "type" (lower-case name)`,
        );
      }
      return e;
    });
}
