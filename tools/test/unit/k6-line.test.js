// engines/k6/line.js reads an http_req_duration line from its bytes; read.js's text path is
// the rule. Every line the byte path reads must give the text path's sample exactly, and
// the lines it declines (another shape, a refusal) are left to the text path.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Clock } from '../../src/engines/clock.js';
import { K6LineReader } from '../../src/engines/k6/line.js';
import { parseRequest } from '../../src/engines/k6/read.js';
import { rng } from '../helpers/synthetic.js';

const HEAD = '{"metric":"http_req_duration","type":"Point","data":{"time":"';
const line = (time, value, tags) => `${HEAD}${time}","value":${value},"tags":${tags}}}`;

function both(text, reader = new K6LineReader(new Clock())) {
  const buf = Buffer.from(`junk\n${text}\n`);
  const bytes = reader.request(buf, 5, buf.length - 1);
  let asText;
  try {
    asText = parseRequest(text, new Clock(), 'f', 1);
  } catch (err) {
    asText = err.message;
  }
  return { bytes, asText };
}

test('k6 line by bytes: the text path’s sample, over a run of ordinary lines', () => {
  const rand = rng(7);
  const reader = new K6LineReader(new Clock());
  const t0 = Date.parse('2026-11-27T14:44:49Z');
  let read = 0;
  for (let i = 0; i < 20_000; i++) {
    const digits = 1 + Math.floor(rand() * 9);
    const frac = String(Math.floor(rand() * 10 ** digits)).padStart(digits, '0');
    const time = `${new Date(t0 + Math.floor(i * 3.7)).toISOString().slice(0, 19)}.${frac}Z`;
    const value = (rand() < 0.05 ? rand() * 20_000 : rand() * 20).toFixed(Math.floor(rand() * 7));
    const side = rand() < 0.5 ? 'a' : 'b';
    const status = rand() < 0.01 ? '0' : rand() < 0.02 ? '502' : '200';
    const err = status === '0' ? '"error":"request timeout","error_code":"1050",' : '';
    const tags = `{${err}"phase":"${rand() < 0.1 ? 'warmup' : 'measure'}","side":"${side}","status":"${status}"}`;
    const { bytes, asText } = both(line(time, value, tags), reader);
    assert.deepEqual(bytes, asText, line(time, value, tags));
    read++;
  }
  assert.equal(read, 20_000);
});

test('k6 line by bytes: unusual lines read alike or left to the text path', () => {
  const T = '2026-11-27T14:44:51.667873202Z';
  const tags = '{"phase":"measure","status":"200"}';
  const cases = [
    [line(T, '1.5', '{"error":"say \\"status\\":\\"x\\" again","status":"0"}'), 'read'],
    [line(T, '1.5', '{"error":"délai dépassé ✓","status":"0"}'), 'read'],
    [line(T, '1.5', '{"error":"","expected_response":"false","status":""}'), 'read'],
    [line(T, '1.5', '{"group":"::g","name":"http://x/?step=\\"1\\"","step":"r100-c4","url":"u"}'), 'read'],
    [line('2026-11-27T14:44:51.5+02:00', '0.000001', tags), 'read'],
    [line('2026-11-27T14:44:51.Z', '7', tags), 'read'],
    [line(T, '3600000', tags), 'read'],
    [`${line(T, '2', tags).slice(0, -1)},"metadata":{"side":"a"}}`, 'read'],
    [line('2026-11-27T14:44:51Z', '1', tags), 'text'],
    [line('2026-11-27T14:44:51.1234567890123456Z', '1', tags), 'text'],
    [line(T, '1e-05', tags), 'text'],
    [line(T, '-1', tags), 'text'],
    [line(T, '3600000.5', tags), 'text'],
    [line(T, '1234567890.1234567', tags), 'text'],
    [line(T, '1.5', '{"status":"2000"}'), 'text'],
    [line(T, '1.5', '{"status":"2x"}'), 'text'],
    [line('2026-13-27T14:44:51.1Z', '1', tags), 'text'],
    [line('2026-11-27T14:44:51.1Zé', '1', tags), 'text'],
    [`${HEAD}${T}","value":1.5,"tags":{}}}`, 'read'],
    [`${HEAD}${T}","value":1.5}}`, 'text'],
    [`${HEAD}${T}"`, 'text'],
    [`${HEAD}${T}","value":1.5,"tags":{"status":"200}}`, 'text'],
  ];
  for (const [text, want] of cases) {
    const { bytes, asText } = both(text);
    if (want === 'read') assert.deepEqual(bytes, asText, text);
    else assert.equal(bytes, null, text);
  }
});
