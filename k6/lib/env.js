// Every value a script reads comes from the run: tailgate's k6 command builder
// (tools/src/run/k6.js k6Env) passes the scenario as config made it, whose defaults are
// config/defaults.js's — there is no other set here. A script started without one refuses
// before any load, naming what is missing; `tailgate run --dry-run` prints each cell's k6
// command with all of them, to run a script by hand.

// What every script reads (lib/target.js, lib/summary.js, its duration and warm-up), and
// what each reads besides. tools/test/unit/k6-env.test.js checks that k6Env passes them.
export const NEEDS = Object.freeze({
  all: ['TG_TARGET_URL', 'TG_HOST', 'TG_PAYLOAD', 'TG_TIMEOUT', 'TG_SUMMARY', 'TG_DURATION', 'TG_WARMUP'],
  steady: ['TG_RATE', 'TG_VUS', 'TG_MAX_VUS'],
  saturation: ['TG_MAX_RATE', 'TG_VUS', 'TG_MAX_VUS'],
  sweep: ['TG_RATES', 'TG_CONNECTIONS'],
  sequential: [],
});

// Switches that are off when absent, not values with a default: a duet's second side,
// sequential's pause after each request, the agreement test's exact summary.
export const OPTIONAL = Object.freeze(['TG_TARGET_URL_B', 'TG_PAUSE', 'TG_EXACT_SUMMARY']);

const FROM_RUN =
  'k6 scripts take every value from the run (tools/src/run/k6.js k6Env; `tailgate run --dry-run` prints the command)';

const absent = (name) => __ENV[name] === undefined || __ENV[name] === '';

/** A value the run passes; an error naming it when it did not. */
export function need(name) {
  if (absent(name)) throw new Error(`${name} is not set: ${FROM_RUN}`);
  return __ENV[name];
}

/** A switch (OPTIONAL): its value, or null when the run left it off. */
export function optional(name) {
  return absent(name) ? null : __ENV[name];
}

export function needInt(name) {
  const raw = need(name);
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0)
    throw new Error(`${name} must be a non-negative integer, got ${JSON.stringify(raw)}`);
  return n;
}

export function needList(name) {
  const raw = need(name);
  return raw.split(',').map((s) => {
    const n = Number(s.trim());
    if (!Number.isInteger(n) || n <= 0)
      throw new Error(`${name} must be a comma-separated list of positive integers, got ${JSON.stringify(raw)}`);
    return n;
  });
}

// Each variable a script's load reads, as the field it fills and how it is read.
const LOAD = {
  TG_DURATION: ['duration', need],
  TG_WARMUP: ['warmup', need],
  TG_RATE: ['rate', needInt],
  TG_MAX_RATE: ['maxRate', needInt],
  TG_VUS: ['vus', needInt],
  TG_MAX_VUS: ['maxVus', needInt],
  TG_RATES: ['rates', needList],
  TG_CONNECTIONS: ['connections', needList],
};

/**
 * The load of k6/scenarios/<script>.js: every variable NEEDS lists for it checked at once
 * (lib/summary.js reads its TG_SUMMARY only after the run), then the values it runs with.
 */
export function loadFor(script) {
  const names = [...NEEDS.all, ...NEEDS[script]];
  const missing = names.filter(absent);
  if (missing.length) throw new Error(`k6/scenarios/${script}.js: ${missing.join(', ')} not set: ${FROM_RUN}`);
  const load = {};
  for (const name of names.filter((n) => LOAD[n])) {
    const [field, read] = LOAD[name];
    load[field] = read(name);
  }
  return load;
}
