// Each load engine's recording of the contract's timeline (engine-timeline.js): the
// output that engine writes when that run happens, in its own format, byte for byte as
// it writes it — no engine runs here (there is no k6 binary on this project's machines;
// Vegeta's live run is engine-contract.test.js's own). One entry per registered engine
// (tools/src/engines/index.js): an engine without one fails the contract.
//
// record(t, dir) -> {file, sides}: the output file, and the duet's sides as ingest needs
// them for an engine whose output names targets, not sides (null: it tags sides itself).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { cellLoad } from '../../src/engines/load.js';
import { attackPlan, targetUrl } from '../../src/engines/vegeta/plan.js';
import { CELL, SCENARIO, endOf, phaseOf, waitOf } from './engine-timeline.js';

// An epoch time in whole microseconds as RFC 3339 with `digits` of fraction (k6: 6, Vegeta: 9).
function rfc3339(us, digits) {
  const s = new Date(Math.floor(us / 1e6) * 1000).toISOString().slice(0, 19);
  const fraction = String(us % 1e6)
    .padStart(6, '0')
    .padEnd(digits, '0');
  return `${s}.${fraction}Z`;
}
const usOf = (ms) => Math.round(ms * 1000);

// k6's words for a transport failure: its error code and text (k6 docs, "Error codes").
const K6_ERRORS = {
  timeout: ['1050', 'request timeout'],
  refused: ['1212', 'dial: connection refused'],
  reset: ['1220', 'read: connection reset by peer'],
};

/**
 * k6 (`--out json`, gzipped): one http_req_duration point per request, at its end, tagged
 * with its phase (the scripts' warm-up and measured scenarios) and side (lib/target.js);
 * one dropped_iterations point per request its executor could not start. k6 starts every
 * iteration when it is due or drops it, and its output has no send time apart from the
 * duration: a request held back after its start is inside the duration k6 measures, so
 * the whole wait is its value.
 */
function recordK6(t, dir) {
  const metric = (name, type, contains) =>
    JSON.stringify({
      type: 'Metric',
      data: { name, type, contains, thresholds: [], submetrics: null },
      metric: name,
    });
  const lines = [metric('http_req_duration', 'trend', 'time'), metric('dropped_iterations', 'counter', 'default')];
  const points = [];
  for (const r of t.requests) {
    const phase = phaseOf(r);
    const [errorCode, error] = K6_ERRORS[r.cls] ?? [];
    const tags = {
      ...(error ? { error, error_code: errorCode } : {}),
      expected_response: r.status === '200' ? 'true' : 'false',
      method: 'GET',
      phase,
      scenario: phase,
      side: r.side,
      status: r.status,
    };
    const end = usOf(endOf(t, r));
    points.push([
      end,
      JSON.stringify({
        metric: 'http_req_duration',
        type: 'Point',
        data: { time: rfc3339(end, 6), value: waitOf(r), tags },
      }),
    ]);
  }
  for (const d of t.neverSent) {
    const at = usOf(t.t0 + d.due);
    points.push([
      at,
      JSON.stringify({
        metric: 'dropped_iterations',
        type: 'Point',
        data: { time: rfc3339(at, 6), value: 1, tags: { phase: d.phase, scenario: d.phase } },
      }),
    ]);
  }
  points.sort((x, y) => x[0] - y[0]);
  const file = join(dir, 'k6.json.gz');
  writeFileSync(file, gzipSync(`${[...lines, ...points.map((p) => p[1])].join('\n')}\n`));
  return { file, sides: null };
}

const URLS = { a: 'http://127.0.0.1:18080', b: 'http://127.0.0.1:18081' };

/**
 * Vegeta (`vegeta encode --to json`, gzipped): one result per request it sent, in the
 * order they completed, each with the attack's name (the plan's: rate, warm-up, window),
 * its sequence number, the moment it was actually sent and its latency from then; the
 * round-robin targeter alternates the duet's two URLs. A request never sent has no
 * result: its sequence number was never given.
 */
function recordVegeta(t, dir) {
  const load = cellLoad(CELL);
  const [attack, ...more] = attackPlan(load);
  if (more.length) throw new Error('engine-recorders: the contract scenario is one Vegeta attack');
  const url = { a: targetUrl(URLS.a, SCENARIO), b: targetUrl(URLS.b, SCENARIO) };
  const error = (r) => {
    const get = `Get "${url[r.side]}"`;
    if (r.cls === 'timeout')
      return `${get}: context deadline exceeded (Client.Timeout exceeded while awaiting headers)`;
    if (r.cls === 'refused')
      return `${get}: dial tcp 127.0.0.1:1808${r.side === 'a' ? 0 : 1}: connect: connection refused`;
    if (r.cls === 'reset') return `${get}: read tcp 127.0.0.1:40000->127.0.0.1:18080: read: connection reset by peer`;
    return r.status === '200' ? '' : `${r.status} ${r.cls}`;
  };
  const results = t.requests.map((r) => {
    const sent = usOf(t.t0 + r.due) + r.lagUs;
    return [
      sent + r.serviceUs,
      JSON.stringify({
        attack: attack.name,
        seq: r.seq,
        code: Number(r.status),
        timestamp: rfc3339(sent, 9),
        latency: r.serviceUs * 1000,
        bytes_out: 0,
        bytes_in: r.status === '200' ? 2 : 0,
        error: error(r),
        body: null,
        method: 'GET',
        url: url[r.side],
        headers: {},
      }),
    ];
  });
  results.sort((x, y) => x[0] - y[0]);
  const file = join(dir, 'vegeta.json.gz');
  writeFileSync(file, gzipSync(`${results.map((x) => x[1]).join('\n')}\n`));
  return { file, sides: url };
}

export const RECORDERS = Object.freeze({ k6: recordK6, vegeta: recordVegeta });
