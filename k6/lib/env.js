// Every knob comes from the environment with a sane default, so a script runs the
// same from tailgate, from a workflow step and by hand: `k6 run k6/scenarios/steady.js`.
export function env(name, fallback) {
  const v = __ENV[name];
  return v === undefined || v === '' ? fallback : v;
}

export function envInt(name, fallback) {
  const raw = env(name, undefined);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0)
    throw new Error(`${name} must be a non-negative integer, got ${JSON.stringify(raw)}`);
  return n;
}

export function envList(name, fallback) {
  const raw = env(name, undefined);
  if (raw === undefined) return fallback;
  return raw.split(',').map((s) => {
    const n = Number(s.trim());
    if (!Number.isInteger(n) || n <= 0)
      throw new Error(`${name} must be a comma-separated list of positive integers, got ${JSON.stringify(raw)}`);
    return n;
  });
}

export const load = {
  rate: envInt('TG_RATE', 100),
  maxRate: envInt('TG_MAX_RATE', 2000),
  duration: env('TG_DURATION', '10s'),
  warmup: env('TG_WARMUP', '0s'),
  vus: envInt('TG_VUS', 50),
  maxVus: envInt('TG_MAX_VUS', 200),
  rates: envList('TG_RATES', [100, 200, 300, 400, 500, 600, 700, 800, 900, 1000]),
  connections: envList('TG_CONNECTIONS', [10, 50]),
  pause: env('TG_PAUSE', '0s'),
};
