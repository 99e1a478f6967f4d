// k6's own end-of-test summary, kept as JSON next to the raw output: tailgate's
// agreement test checks its HDR percentiles against these exact values.
import { need } from './env.js';

export function handleSummary(data) {
  const out = {};
  out[need('TG_SUMMARY')] = JSON.stringify(data, null, 1);
  const d = data.metrics.http_req_duration?.values ?? {};
  const reqs = data.metrics.http_reqs?.values?.count ?? 0;
  const failed = data.metrics.http_req_failed?.values?.passes ?? 0;
  const dropped = data.metrics.dropped_iterations?.values?.count ?? 0;
  out.stdout = `k6: ${reqs} requests, ${failed} failed, ${dropped} dropped, p99 ${fmt(d['p(99)'])} ms, p99.99 ${fmt(d['p(99.99)'])} ms\n`;
  return out;
}

function fmt(v) {
  return v === undefined ? '-' : v.toFixed(3);
}
