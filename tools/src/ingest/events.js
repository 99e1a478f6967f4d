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
  return text.split('\n').filter(Boolean).map((line, i) => {
    let e;
    try {
      e = JSON.parse(line);
    } catch {
      throw new InputError(`${file}:${i + 1}: not a JSON line`);
    }
    if (typeof e.ts !== 'number' || typeof e.type !== 'string') {
      throw new InputError(`${file}:${i + 1}: an event needs "ts" (epoch milliseconds, number) and "type" (string)`);
    }
    return e;
  });
}
