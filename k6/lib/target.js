// The system under test, from the environment: URL, Host header, TLS, payload size.
import http from 'k6/http';
import exec from 'k6/execution';
import { env } from './env.js';

const base = env('TG_TARGET_URL', 'http://127.0.0.1:8080').replace(/\/$/, '');
const payload = env('TG_PAYLOAD', '0KiB');
if (!['0KiB', '1KiB'].includes(payload))
  throw new Error(`TG_PAYLOAD must be 0KiB or 1KiB, got ${JSON.stringify(payload)}`);

const baseB = env('TG_TARGET_URL_B', '').replace(/\/$/, '');

export const target = {
  url: `${base}/${payload}`,
  // Concurrent A/B: a second data plane; iterations alternate a, b, a, b … so both
  // see the same machine at the same moments (tailgate splits the output by side).
  urlB: baseB ? `${baseB}/${payload}` : null,
  host: env('TG_HOST', 'bench.local'),
  timeout: env('TG_TIMEOUT', '10s'),
};

const params = { headers: { Host: target.host }, timeout: target.timeout };
const sideParams = target.urlB && [
  { ...params, tags: { side: 'a' } },
  { ...params, tags: { side: 'b' } },
];

export function hit() {
  if (!sideParams) return http.get(target.url, params);
  const i = exec.scenario.iterationInTest % 2;
  return http.get(i ? target.urlB : target.url, sideParams[i]);
}

// Fail fast before any load: a wrong URL should cost one request, not a whole run.
export function preflight() {
  for (const url of [target.url, target.urlB].filter(Boolean)) {
    const res = http.get(url, params);
    if (res.status !== 200) {
      throw new Error(
        `preflight: expected 200 from ${url} (Host: ${target.host}), got status ${res.status} ${res.error || ''}`.trim(),
      );
    }
  }
}
