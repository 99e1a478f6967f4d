// Flags shared by several commands; every flag can also come from TAILGATE_* env.
import { InputError } from '../errors.js';
import { schemaBounds } from '../schema.js';
import { loadBench } from '../config/load.js';
import { isDuration, MAX_RUN_MS, parseDuration } from '../units.js';

export const configOption = { config: { type: 'string', default: process.env.TAILGATE_CONFIG ?? 'bench.yaml' } };

// The ranges a run accepts are the file's (schemas/bench.schema.json): `run`, `plan` and the
// dispatch workflow's check (tools/ci/check-dispatch.sh calls `plan` with the inputs) use them.
export const LIMITS = Object.freeze({
  rate: schemaBounds('bench', 'definitions/scenario/properties/rate'),
  repetitions: schemaBounds('bench', 'definitions/matrix/properties/repetitions'),
});

/** --controllers/--tunings/--scenarios/--rate/--duration/--repetitions, and a duet's
 *  --ab-head / --duet-base (the base checkout's bench.yaml, loaded) -> planMatrix overrides. */
export function planOverrides(opts) {
  const rate = int(opts.rate, 'rate', LIMITS.rate);
  const dur = duration(opts.duration, 'duration');
  return {
    abHead: opts['ab-head'],
    alternate: opts.alternate || undefined,
    // The run's --rate and --duration hold for both sides: the base as it runs, or its
    // workload would read as changed by what only the command line set.
    duetBase: opts['duet-base']
      ? loadBench(opts['duet-base'], { matrix: opts.matrix, overrides: { rate, duration: dur } })
      : undefined,
    controllers: list(opts.controllers, 'controllers'),
    tunings: list(opts.tunings, 'tunings'),
    scenarios: list(opts.scenarios, 'scenarios'),
    rate,
    duration: dur,
    repetitions: int(opts.repetitions, 'repetitions', LIMITS.repetitions),
  };
}

export function list(value, flag) {
  if (value === undefined) return undefined;
  const items = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!items.length) throw new InputError(`--${flag}: expected a comma-separated list, got ${JSON.stringify(value)}`);
  return items;
}

export function int(value, flag, { min, max }) {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new InputError(`--${flag}: expected an integer from ${min} to ${max}, got ${JSON.stringify(value)}`);
  return n;
}

export function duration(value, flag) {
  if (value === undefined) return undefined;
  if (!isDuration(value))
    throw new InputError(`--${flag}: expected a duration like 30s or 1m, got ${JSON.stringify(value)}`);
  const ms = parseDuration(value);
  if (!(ms >= 1000 && ms <= MAX_RUN_MS))
    throw new InputError(`--${flag}: expected from 1s to 24h, got ${JSON.stringify(value)}`);
  return value;
}
