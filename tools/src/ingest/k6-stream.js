// Streams k6's `--out json` (optionally gzipped) and hands each request sample to a
// callback. Lines are filtered by prefix before any parsing: a run writes 13 lines
// per request and only one (http_req_duration) carries what tailgate needs; that
// line is read from its bytes (k6-line.js), or, when it is not in k6's own shape,
// picked apart as text with indexOf instead of JSON.parse.
import { InputError } from '../errors.js';
import { chunksOf } from './open.js';
import { Clock } from './clock.js';
import { K6LineReader } from './k6-line.js';

const DURATION = '{"metric":"http_req_duration","type":"Point","data":{"time":"';
const DROPPED = '{"metric":"dropped_iterations","type":"Point","data":{"time":"';
// k6 lines are a few hundred bytes; a megabyte without a newline is not k6 output, and
// splitting it over and over would cost quadratic time.
const MAX_LINE = 1 << 20;
// An hour: no request in a benchmark takes longer (k6's timeout is far below).
const MAX_LATENCY_MS = 3_600_000;
// k6 writes none; past a few (files joined by hand) a blank line is not k6 output, and
// a gzip of newlines must not keep ingest reading them.
const MAX_BLANK_LINES = 1000;

/**
 * onRequest({ts, ms, status, errorCode, error, phase, step}); onDropped({ts, count, phase}).
 * Resolves with {lines, k6Lines}. Throws InputError naming the file and line on bad input.
 */
export async function readK6Output(file, { onRequest, onDropped }) {
  const clock = new Clock();
  const byBytes = new K6LineReader(clock);
  let rest = null; // bytes of an unfinished line from the previous chunk
  let lineNo = 0;
  let k6Lines = 0;
  let blank = 0;
  // Lines are found and classified as bytes: only the one line per request ingest
  // needs (and dropped iterations) is ever decoded into a string.
  const handle = (buf, s, e) => {
    lineNo++;
    if (e === s) {
      if (++blank > MAX_BLANK_LINES)
        throw new InputError(`${file}:${lineNo}: more than ${MAX_BLANK_LINES} blank lines: not k6 output`);
      return;
    }
    if (e - s > MAX_LINE) throw new InputError(`${file}:${lineNo}: line longer than ${MAX_LINE} bytes: not k6 output`);
    if (startsWith(buf, s, e, DURATION_BYTES)) {
      k6Lines++;
      onRequest(byBytes.request(buf, s, e) ?? parseRequest(buf.toString('utf8', s, e), clock, file, lineNo));
    } else if (startsWith(buf, s, e, DROPPED_BYTES)) {
      k6Lines++;
      onDropped(parseDropped(buf.toString('utf8', s, e), clock, file, lineNo));
    } else if (startsWith(buf, s, e, METRIC_BYTES) || startsWith(buf, s, e, TYPE_METRIC_BYTES)) {
      k6Lines++;
    } else if (k6Lines === 0 && lineNo <= 3) {
      throw new InputError(
        `${file}:${lineNo}: not k6 JSON output (expected lines that start {"metric":... or {"type":"Metric",...)`,
      );
    } else if (buf[s] !== 0x7b /* { */) {
      throw new InputError(`${file}:${lineNo}: corrupt k6 output line (does not start with "{")`);
    }
  };
  try {
    for await (const chunk of chunksOf(file, 'k6 output')) {
      let s = 0;
      if (rest) {
        // Only the line that spans the chunks is copied together, not the whole chunk.
        const nl = chunk.indexOf(10);
        if (nl >= 0) {
          const line = Buffer.concat([rest, chunk.subarray(0, nl)]);
          handle(line, 0, line.length);
          s = nl + 1;
        }
      }
      for (let e = chunk.indexOf(10, s); e >= 0; e = chunk.indexOf(10, s)) {
        handle(chunk, s, e);
        s = e + 1;
      }
      if (rest && s === 0) rest = Buffer.concat([rest, chunk]);
      else rest = s < chunk.length ? chunk.subarray(s) : null;
      if (rest && rest.length > MAX_LINE)
        throw new InputError(`${file}:${lineNo + 1}: line longer than ${MAX_LINE} bytes: not k6 output`);
    }
  } catch (err) {
    if (err instanceof InputError) throw err;
    if (err.sample) throw new InputError(`${file}:${lineNo}: ${err.message}`);
    throw new InputError(
      `${file}: cannot read k6 output after line ${lineNo}: ${err.message}${err.code === 'Z_BUF_ERROR' || /unexpected end/.test(err.message) ? ' (truncated gzip: did the run finish?)' : ''}`,
    );
  }
  if (rest?.length) {
    // A complete k6 file ends with a newline; a partial last line means truncation.
    throw new InputError(
      `${file}:${lineNo + 1}: truncated k6 output (the last line, ${rest.length} bytes, has no newline)`,
    );
  }
  if (k6Lines === 0) throw new InputError(`${file}: no k6 samples found (empty file, or not k6 --out json output)`);
  return { lines: lineNo, k6Lines };
}

const DURATION_BYTES = Buffer.from(DURATION);
const DROPPED_BYTES = Buffer.from(DROPPED);
const METRIC_BYTES = Buffer.from('{"metric":"');
const TYPE_METRIC_BYTES = Buffer.from('{"type":"Metric"');

// Byte by byte in JS: most lines differ from a prefix within its first dozen bytes, and
// a call into Buffer#compare costs more than that.
function startsWith(buf, s, e, prefix) {
  const n = prefix.length;
  if (e - s < n) return false;
  for (let i = n - 1; i >= 0; i--) if (buf[s + i] !== prefix[i]) return false;
  return true;
}

export function parseRequest(line, clock, file, lineNo) {
  const timeEnd = line.indexOf('"', DURATION.length);
  const valueAt = line.indexOf('"value":', timeEnd);
  const valueEnd = line.indexOf(',', valueAt);
  const ms = Number(line.slice(valueAt + 8, valueEnd));
  if (timeEnd < 0 || valueAt < 0 || !Number.isFinite(ms)) {
    throw new InputError(`${file}:${lineNo}: malformed http_req_duration sample`);
  }
  if (ms < 0 || ms > MAX_LATENCY_MS)
    throw new InputError(`${file}:${lineNo}: http_req_duration ${ms} ms is outside 0 … ${MAX_LATENCY_MS} ms`);
  const status = tag(line, '"status":"', valueEnd);
  if (status !== undefined && !/^\d{0,3}$/.test(status))
    throw new InputError(
      `${file}:${lineNo}: status tag must be an HTTP status code (digits), got ${JSON.stringify(status.slice(0, 20))}`,
    );
  return {
    ts: clock.parse(line.slice(DURATION.length, timeEnd), file, lineNo),
    ms,
    status,
    errorCode: tag(line, '"error_code":"', valueEnd),
    error: tag(line, '"error":"', valueEnd),
    phase: tag(line, '"phase":"', valueEnd),
    step: tag(line, '"step":"', valueEnd),
    side: tag(line, '"side":"', valueEnd),
  };
}

function parseDropped(line, clock, file, lineNo) {
  const timeEnd = line.indexOf('"', DROPPED.length);
  const valueAt = line.indexOf('"value":', timeEnd);
  const count = Number(line.slice(valueAt + 8, line.indexOf(',', valueAt)));
  if (valueAt < 0 || !Number.isInteger(count) || count < 0 || count > 1e9)
    throw new InputError(`${file}:${lineNo}: dropped_iterations value must be a non-negative integer`);
  return {
    ts: clock.parse(line.slice(DROPPED.length, timeEnd), file, lineNo),
    count,
    phase: tag(line, '"phase":"', valueAt),
  };
}

// Tag values are JSON strings; k6 escapes quotes inside them, so the first
// unescaped quote after the key ends the value.
function tag(line, key, from) {
  const at = line.indexOf(key, from);
  if (at < 0) return undefined;
  const start = at + key.length;
  let end = line.indexOf('"', start);
  while (end > 0 && line.charCodeAt(end - 1) === 92 /* \ */) end = line.indexOf('"', end + 1);
  return line.slice(start, end);
}
