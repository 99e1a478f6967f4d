// Writes k6 `--out json` lines in the exact shape k6 v1.8.1 emits (see the real
// fixture fixtures/k6/real-run.json.gz), for ingest tests that need exact control.
import { gzipSync } from 'node:zlib';

export function metricLine(name, type = 'trend') {
  return JSON.stringify({
    type: 'Metric',
    data: { name, type, contains: 'time', thresholds: [], submetrics: null },
    metric: name,
  });
}

export function durationLine({ ts, ms, status = '200', errorCode, error, phase = 'measure' }) {
  const tags = {};
  if (error) tags.error = error;
  if (errorCode) tags.error_code = errorCode;
  tags.expected_response = status === '200' ? 'true' : 'false';
  tags.method = 'GET';
  if (phase) tags.phase = phase;
  tags.scenario = phase ?? 'default';
  tags.status = status;
  return JSON.stringify({
    metric: 'http_req_duration',
    type: 'Point',
    data: { time: new Date(ts).toISOString().replace('Z', '123456Z'), value: ms, tags },
  });
}

export function droppedLine({ ts, count = 1, phase = 'measure' }) {
  return JSON.stringify({
    metric: 'dropped_iterations',
    type: 'Point',
    data: { time: new Date(ts).toISOString(), value: count, tags: { phase, scenario: phase } },
  });
}

export function k6File(lines, { gzip = true } = {}) {
  const text = `${lines.join('\n')}\n`;
  return gzip ? gzipSync(text) : Buffer.from(text);
}
