// bench.yaml tuning knobs -> nginx and HAProxy settings. "default" means the
// proxy's own compiled-in defaults (stock nginx: 1 worker, no upstream keep-alive),
// so a tuning set shows exactly what the tuning guide's knobs buy.
import { tuningMs } from '../../config/normalise.js';
import { runSync } from '../../exec/run.js';

// HAProxy refuses to start when maxconn needs more descriptors than the process
// may open (about two per connection); the tuning's value is clamped to fit.
const NOFILE = Number(runSync(['sh', '-c', 'ulimit -n'], { timeoutMs: 5000 }).stdout.trim()) || 1024;
export const HAPROXY_MAXCONN_LIMIT = Math.max(256, Math.floor((NOFILE - 200) / 2));

// A tuning's `retries` (failover) overrides the controller's retries on/off: 0 is off,
// n retries are n + 1 tries.
// Without it each proxy keeps what it had: nginx 3 tries, HAProxy 3 retries.
function retriesOf(tuning, controllerRetries) {
  if (tuning.retries === undefined) return { on: controllerRetries === 'on', retries: null };
  return { on: tuning.retries > 0, retries: tuning.retries };
}

export function nginxSettings(tuning = {}, { retries: controllerRetries = 'on' } = {}) {
  const { on, retries: n } = retriesOf(tuning, controllerRetries);
  const retries = on ? 'on' : 'off';
  const upstreamKeepalive = tuning.upstreamKeepalive ?? 0;
  return {
    workerProcesses: tuning.workerProcesses ?? 1,
    workerConnections: tuning.workerConnections ?? 512,
    keepaliveRequests: tuning.keepaliveRequests ?? 1000,
    backlog: tuning.backlog ?? 511,
    gzip: tuning.gzip ? 'on' : 'off',
    // Without `keepalive` nginx speaks HTTP/1.0 to upstreams: a new connection per request.
    upstreamKeepalive:
      upstreamKeepalive > 0
        ? `keepalive ${upstreamKeepalive};\n    keepalive_requests ${tuning.upstreamKeepaliveRequests ?? 1000};`
        : '',
    proxyHttp: upstreamKeepalive > 0 ? 'proxy_http_version 1.1;\n      proxy_set_header Connection "";' : '',
    connectTimeout: `${tuningMs(tuning).connectTimeout}ms`,
    readTimeout: `${tuningMs(tuning).readTimeout}ms`,
    // nginx's default is `error timeout`: a refused or reset upstream is retried on
    // the next one, which hides endpoint-update failures from clients.
    nextUpstream: on
      ? `proxy_next_upstream error timeout http_502 http_503;\n      proxy_next_upstream_tries ${n === null ? 3 : n + 1};`
      : 'proxy_next_upstream off;',
    retries,
  };
}

export function haproxySettings(tuning = {}, { retries: controllerRetries = 'on' } = {}) {
  const { on, retries: n } = retriesOf(tuning, controllerRetries);
  const threads = tuning.workerProcesses === 'auto' ? 0 : (tuning.workerProcesses ?? 1);
  return {
    nbthread: threads === 0 ? '' : `nbthread ${threads}`,
    maxconn: Math.min(tuning.workerConnections ?? 4096, HAPROXY_MAXCONN_LIMIT),
    backlog: tuning.backlog ?? 1024,
    // HAProxy pools server connections with http-reuse; "safe" is its default.
    httpReuse: (tuning.upstreamKeepalive ?? 0) > 0 ? 'always' : 'safe',
    compression: tuning.gzip ? 'compression algo gzip\n  compression type text/plain application/octet-stream' : '',
    connectTimeout: `${tuningMs(tuning).connectTimeout}ms`,
    readTimeout: `${tuningMs(tuning).readTimeout}ms`,
    retries: on
      ? `retries ${n ?? 3}\n  option redispatch 1\n  retry-on conn-failure empty-response response-timeout 502 503`
      : 'retries 0',
  };
}
