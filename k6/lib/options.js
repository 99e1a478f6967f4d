// Shared k6 options. Open-loop executors only for rate-based scenarios: an
// arrival-rate executor starts iterations on a clock, so a slow response never
// delays the next request (no coordinated omission). Never sleep() in them.
import { optional } from './env.js';

export function baseOptions(scenarios) {
  return {
    scenarios,
    discardResponseBodies: true,
    insecureSkipTLSVerify: true, // the proxies' test certificates are self-signed
    summaryTrendStats: ['min', 'avg', 'med', 'p(50)', 'p(90)', 'p(99)', 'p(99.9)', 'p(99.99)', 'max', 'count'],
    // Only the system tags ingest reads (tools/src/ingest/k6-stream.js): every tag is
    // bytes on each of the 13 lines per request k6 writes and gzips while under load.
    systemTags: ['status', 'error', 'error_code'],
    // TG_EXACT_SUMMARY=1 (the agreement test): a threshold that always holds makes k6
    // keep every sample of the measured phase in a sub-metric, so its summary has that
    // phase's exact percentiles to check tailgate against. Off otherwise: it costs k6
    // CPU per request (make perf, "k6 CPU") and tailgate reads the raw output anyway.
    ...(optional('TG_EXACT_SUMMARY') === '1' ? { thresholds: { 'http_req_duration{phase:measure}': ['max>=0'] } } : {}),
  };
}

/** A warm-up scenario (tagged phase=warmup, excluded from the gate) then the measured one. */
export function withWarmup(warmup, measured) {
  const out = {};
  const seconds = parseSeconds(warmup);
  if (seconds > 0) {
    out.warmup = { ...measured, duration: warmup, tags: { phase: 'warmup' } };
    if (measured.executor === 'ramping-arrival-rate') {
      out.warmup = {
        executor: 'constant-arrival-rate',
        rate: measured.startRate,
        timeUnit: '1s',
        duration: warmup,
        preAllocatedVUs: measured.preAllocatedVUs,
        maxVUs: measured.maxVUs,
        tags: { phase: 'warmup' },
      };
    }
  }
  out.measure = { ...measured, startTime: `${seconds}s`, tags: { phase: 'measure', ...(measured.tags || {}) } };
  return out;
}

export function parseSeconds(text) {
  const units = { ms: 0.001, s: 1, m: 60, h: 3600 };
  let total = 0;
  for (const m of String(text).matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)) total += Number(m[1]) * units[m[2]];
  return total;
}
