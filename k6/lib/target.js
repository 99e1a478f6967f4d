// The system under test, from the run (lib/env.js): URL, Host header, payload size, timeout.
import http from 'k6/http';
import exec from 'k6/execution';
import { need, optional } from './env.js';

const base = need('TG_TARGET_URL').replace(/\/$/, '');
const payload = need('TG_PAYLOAD');
if (!['0KiB', '1KiB'].includes(payload))
  throw new Error(`TG_PAYLOAD must be 0KiB or 1KiB, got ${JSON.stringify(payload)}`);

const baseB = (optional('TG_TARGET_URL_B') ?? '').replace(/\/$/, '');

export const target = {
  url: `${base}/${payload}`,
  // Concurrent A/B: a second data plane; iterations alternate a, b, a, b … so both
  // see the same machine at the same moments (tailgate splits the output by side).
  urlB: baseB ? `${baseB}/${payload}` : null,
  host: need('TG_HOST'),
  timeout: need('TG_TIMEOUT'),
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
