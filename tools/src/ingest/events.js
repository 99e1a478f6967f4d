// Fault events (pod killed, update applied, reload...) written by target drivers as
// JSON lines {"ts": <epoch ms>, "type": "...", ...}; merged onto the k6 clock.
import { InputError } from '../errors.js';
import { readTextFile } from '../result/read.js';

// What a run's events can be: a fault acts at most every 100 ms, so a day of faults is
// under 1M events, but a real schedule writes hundreds. Each event is a few flat
// fields; the drivers cap their strings (run/event-log.js).
export const EVENT_LIMITS = Object.freeze({
  fileBytes: 8 << 20,
  events: 100_000,
  lineBytes: 4096,
  fields: 16,
  stringChars: 1000,
  // Set-up and teardown happen on the run's clock too, but not hours away from it.
  marginMs: 3_600_000,
});
const FIELD = /^[A-Za-z][A-Za-z0-9_]{0,40}$/;

export function readEvents(file) {
  let text;
  try {
    text = readTextFile(file, { maxBytes: EVENT_LIMITS.fileBytes, follow: true });
  } catch (err) {
    throw new InputError(`${err.message.replace(/cannot read/, 'cannot read events file')}`);
  }
  const lines = text.split('\n');
  if (lines.length > EVENT_LIMITS.events + 1)
    throw new InputError(`${file}: more than ${EVENT_LIMITS.events} events: not one run's fault log`);
  return lines
    .map((line, i) => [line, i])
    .filter(([line]) => line)
    .map(([line, i]) => parseEvent(line, `${file}:${i + 1}`));
}

function parseEvent(line, where) {
  if (Buffer.byteLength(line) > EVENT_LIMITS.lineBytes)
    throw new InputError(`${where}: an event line is at most ${EVENT_LIMITS.lineBytes} bytes`);
  let e;
  try {
    e = JSON.parse(line);
  } catch {
    throw new InputError(`${where}: not a JSON line`);
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
      `${where}: an event is an object with "ts" (epoch milliseconds, a finite number) and "type" (lower-case name)`,
    );
  }
  const fields = Object.entries(e);
  if (fields.length > EVENT_LIMITS.fields)
    throw new InputError(`${where}: an event has at most ${EVENT_LIMITS.fields} fields`);
  for (const [k, v] of fields) {
    const flat =
      v === null ||
      typeof v === 'boolean' ||
      Number.isFinite(v) ||
      (typeof v === 'string' && v.length <= EVENT_LIMITS.stringChars);
    if (!FIELD.test(k) || !flat)
      throw new InputError(
        `${where}: event fields are names (${FIELD.source}) with a number, boolean, null or a string of at most ${EVENT_LIMITS.stringChars} characters`,
      );
  }
  return e;
}

/** Events must lie on the clock of the run they belong to (its first and last second). */
export function checkEventTimes(events, fromMs, toMs, file) {
  const lo = fromMs - EVENT_LIMITS.marginMs;
  const hi = toMs + EVENT_LIMITS.marginMs;
  const i = events.findIndex((e) => e.ts < lo || e.ts > hi);
  if (i >= 0)
    throw new InputError(
      `${file}: event ${i + 1} (${events[i].type}) is more than ${EVENT_LIMITS.marginMs / 60_000} min outside the run's k6 samples: from another run or another clock`,
    );
}
