// A k6 `--out json` file of N requests in exactly the shape tailgate's scenarios
// produce (13 lines per request: 9 http_req_* metrics, 4 per-iteration ones), at
// 1000 requests/s, written with streaming gzip so 10M requests fit in little memory.
// tags 'k6-default': the tags a user's own script writes (k6's default system tags:
// url, name, proto, group, tls_version… — lines about twice as long).
import { createWriteStream } from 'node:fs';
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

const TAGS = {
  tailgate: {
    http: '{"expected_response":"true","method":"GET","phase":"measure","scenario":"measure","status":"200"}',
    iter: '{"phase":"measure","scenario":"measure"}',
  },
  'k6-default': {
    http: '{"expected_response":"true","group":"","method":"GET","name":"http://127.0.0.1:18080/1KiB","proto":"HTTP/1.1","scenario":"default","status":"200","tls_version":"","url":"http://127.0.0.1:18080/1KiB"}',
    iter: '{"group":"","scenario":"default"}',
  },
};

export async function generate(file, requests, { tags: kind = 'tailgate' } = {}) {
  const { http: tags, iter } = TAGS[kind];
  const gz = createGzip({ level: constants.Z_BEST_SPEED });
  const out = gz.pipe(createWriteStream(file));
  const rand = rng(42);
  const t0 = Date.parse('2026-11-22T10:00:00Z');
  const decl = (name, type) =>
    `{"type":"Metric","data":{"name":"${name}","type":"${type}","contains":"time","thresholds":[],"submetrics":null},"metric":"${name}"}\n`;
  let buf = [...HTTP, ...ITER].map((m) => decl(m, m === 'http_reqs' ? 'counter' : 'trend')).join('');
  for (let i = 0; i < requests; i++) {
    const iso = new Date(t0 + i).toISOString().replace('Z', '345678Z');
    const ms = (0.2 + rand() * 0.3 + (rand() < 0.01 ? rand() * 20 : 0)).toFixed(6);
    for (const m of HTTP)
      buf += `{"metric":"${m}","type":"Point","data":{"time":"${iso}","value":${m === 'http_req_duration' ? ms : m === 'http_reqs' || m === 'http_req_failed' ? (m === 'http_reqs' ? 1 : 0) : '0.012'},"tags":${tags}}}\n`;
    for (const m of ITER) buf += `{"metric":"${m}","type":"Point","data":{"time":"${iso}","value":1,"tags":${iter}}}\n`;
    if (buf.length > 1 << 20) {
      if (!gz.write(buf)) await new Promise((r) => gz.once('drain', r));
      buf = '';
    }
  }
  gz.end(buf);
  await new Promise((r) => out.once('finish', r));
}
