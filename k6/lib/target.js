// The system under test, from the environment: URL, Host header, TLS, payload size.
import http from 'k6/http';
import { env } from './env.js';

const base = env('TG_TARGET_URL', 'http://127.0.0.1:8080').replace(/\/$/, '');
const payload = env('TG_PAYLOAD', '0KiB');
if (!['0KiB', '1KiB'].includes(payload)) throw new Error(`TG_PAYLOAD must be 0KiB or 1KiB, got ${JSON.stringify(payload)}`);

export const target = {
  url: `${base}/${payload}`,
  host: env('TG_HOST', 'bench.local'),
  timeout: env('TG_TIMEOUT', '10s'),
};

const params = { headers: { Host: target.host }, timeout: target.timeout };

export function hit() {
  return http.get(target.url, params);
}

// Fail fast before any load: a wrong URL should cost one request, not a whole run.
export function preflight() {
  const res = hit();
  if (res.status !== 200) {
    throw new Error(`preflight: expected 200 from ${target.url} (Host: ${target.host}), got status ${res.status} ${res.error || ''}`.trim());
  }
}
