// A k6 `--out json` file of N requests in exactly the shape tailgate's scenarios
// produce (13 lines per request: 9 http_req_* metrics, 4 per-iteration ones), written
// with streaming gzip so 10M requests fit in little memory.
// tags 'tailgate': one side at 1000 requests/s. 'k6-default': the tags a user's own
// script writes (k6's default system tags: url, name, proto, group, tls_version… —
// lines about twice as long). 'duet': what a PR cell's pod-kill duet writes on kind —
// sides a and b at 250/s each, 10 s of warm-up, a kill every 20 s followed by a 1.5 s
// bump of 100–500 ms requests, a few 502s and timeouts — with its events file.
import { createWriteStream, writeFileSync } from 'node:fs';
import { createGzip, constants } from 'node:zlib';
import { rng } from '../test/helpers/synthetic.js';

const HTTP = [
  'http_reqs',
  'http_req_duration',
  'http_req_blocked',
  'http_req_connecting',
  'http_req_tls_handshaking',
  'http_req_sending',
  'http_req_waiting',
  'http_req_receiving',
  'http_req_failed',
];
const ITER = ['data_sent', 'data_received', 'iterations', 'iteration_duration'];
const T0 = Date.parse('2026-11-22T10:00:00Z');

const SHAPES = {
  tailgate: () => ({
    stepMs: 1,
    http: '{"expected_response":"true","method":"GET","phase":"measure","scenario":"measure","status":"200"}',
    iter: '{"phase":"measure","scenario":"measure"}',
    ms: (rand) => 0.2 + rand() * 0.3 + (rand() < 0.01 ? rand() * 20 : 0),
  }),
  'k6-default': () => ({
    stepMs: 1,
    http: '{"expected_response":"true","group":"","method":"GET","name":"http://127.0.0.1:18080/1KiB","proto":"HTTP/1.1","scenario":"default","status":"200","tls_version":"","url":"http://127.0.0.1:18080/1KiB"}',
    iter: '{"group":"","scenario":"default"}',
    ms: (rand) => 0.2 + rand() * 0.3 + (rand() < 0.01 ? rand() * 20 : 0),
  }),
  duet: duetShape,
};

/** Writes `file`; with tags 'duet' and `events`, the kills' events file too. */
export async function generate(file, requests, { tags: kind = 'tailgate', events = null } = {}) {
  const shape = SHAPES[kind]();
  const gz = createGzip({ level: constants.Z_BEST_SPEED });
  const out = gz.pipe(createWriteStream(file));
  const rand = rng(42);
  const decl = (name, type) =>
    `{"type":"Metric","data":{"name":"${name}","type":"${type}","contains":"time","thresholds":[],"submetrics":null},"metric":"${name}"}\n`;
  let buf = [...HTTP, ...ITER].map((m) => decl(m, m === 'http_reqs' ? 'counter' : 'trend')).join('');
  for (let i = 0; i < requests; i++) {
    const t = T0 + i * shape.stepMs;
    const iso = new Date(t).toISOString().replace('Z', '345678Z');
    const r = shape.request ? shape.request(i, t, rand) : { ms: shape.ms(rand), http: shape.http, iter: shape.iter };
    const ms = r.ms.toFixed(6);
    for (const m of HTTP)
      buf += `{"metric":"${m}","type":"Point","data":{"time":"${iso}","value":${m === 'http_req_duration' ? ms : m === 'http_reqs' || m === 'http_req_failed' ? (m === 'http_reqs' ? 1 : 0) : '0.012'},"tags":${r.http}}}\n`;
    for (const m of ITER)
      buf += `{"metric":"${m}","type":"Point","data":{"time":"${iso}","value":1,"tags":${r.iter}}}\n`;
    if (buf.length > 1 << 20) {
      if (!gz.write(buf)) await new Promise((res) => gz.once('drain', res));
      buf = '';
    }
  }
  gz.end(buf);
  await new Promise((res) => out.once('finish', res));
  if (events && shape.events) writeFileSync(events, shape.events(requests));
}

function duetShape() {
  const stepMs = 2; // 500 requests/s, both sides
  const killEveryMs = 20_000;
  const warmupMs = 10_000;
  return {
    stepMs,
    request(i, t, rand) {
      const phase = t - T0 < warmupMs ? 'warmup' : 'measure';
      const side = i % 2 ? 'b' : 'a';
      let ms = 2 + rand() * 3 + (rand() < 0.01 ? rand() * 40 : 0);
      let status = '200';
      let error = '';
      if (t - T0 >= killEveryMs && (t - T0) % killEveryMs < 1500 && rand() < 0.3) ms = 100 + rand() * 400;
      const e = rand();
      if (e < 0.0005) {
        [ms, status, error] = [10000 + rand(), '0', '"error":"request timeout","error_code":"1050",'];
      } else if (e < 0.0025) [status, error] = ['502', '"error_code":"1502",'];
      return {
        ms,
        http: `{${error}"phase":"${phase}","side":"${side}","status":"${status}"}`,
        iter: `{"phase":"${phase}"}`,
      };
    },
    events(requests) {
      const lines = [`{"ts":${T0 + killEveryMs - 5},"type":"fault-start","fault":"pod-kill"}`];
      for (let t = killEveryMs; t < requests * stepMs; t += killEveryMs)
        lines.push(`{"ts":${T0 + t},"type":"pod-killed","pod":"backend-${t / killEveryMs}"}`);
      return `${lines.join('\n')}\n`;
    },
  };
}
