// Streams k6's `--out json` (optionally gzipped) and hands each request sample to a
// callback. Lines are filtered by prefix before any parsing: a run writes 13 lines
// per request and only one (http_req_duration) carries what tailgate needs; that
// line is read from its bytes (line.js), or, when it is not in k6's own shape,
// picked apart as text with indexOf instead of JSON.parse.
import { InputError } from '../../errors.js';
import { chunksOf } from '../open.js';
import { Clock } from '../clock.js';
import { K6LineReader } from './line.js';

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
 * onRequest({ts, ms, status, errorCode, error, phase, step, side}); onDropped({ts, count, phase}).
 * Resolves with {lines, k6Lines}. Throws InputError naming the file and line on bad input.
 */
export async function readK6Output(file, { onRequest, onDropped }) {
  const scan = new Scan(file, onRequest, onDropped);
  try {
    for await (const chunk of chunksOf(file, 'k6 output')) scan.chunk(chunk);
  } catch (err) {
    if (err instanceof InputError) throw err;
    if (err.sample) throw new InputError(`${file}:${scan.lineNo}: ${err.message}`);
    throw new InputError(
      `${file}: cannot read k6 output after line ${scan.lineNo}: ${err.message}${err.code === 'Z_BUF_ERROR' || /unexpected end/.test(err.message) ? ' (truncated gzip: did the run finish?)' : ''}`,
    );
  }
  const { rest, lineNo, k6Lines } = scan;
  if (rest?.length) {
    // A complete k6 file ends with a newline; a partial last line means truncation.
    throw new InputError(
      `${file}:${lineNo + 1}: truncated k6 output (the last line, ${rest.length} bytes, has no newline)`,
    );
  }
  if (k6Lines === 0) throw new InputError(`${file}: no k6 samples found (empty file, or not k6 --out json output)`);
  return { lines: lineNo, k6Lines };
}

// Lines are found and classified as bytes: only the one line per request ingest needs
// (and dropped iterations) is ever decoded into a string. 13 lines a request, 1.3 M at
// 100k requests: the loop over a chunk keeps its counts in locals and takes k6's own
// lines at once; the rest (the first lines, blank, over-long or foreign ones) go
// through line(), which has every rule.
class Scan {
  constructor(file, onRequest, onDropped) {
    this.file = file;
    this.onRequest = onRequest;
    this.onDropped = onDropped;
    this.clock = new Clock();
    this.byBytes = new K6LineReader(this.clock);
    this.rest = null; // bytes of an unfinished line from the previous chunk
    this.lineNo = 0;
    this.k6Lines = 0;
    this.blank = 0;
  }

  chunk(chunk) {
    let s = 0;
    if (this.rest) {
      // Only the line that spans the chunks is copied together, not the whole chunk.
      const nl = chunk.indexOf(10);
      if (nl >= 0) {
        const line = Buffer.concat([this.rest, chunk.subarray(0, nl)]);
        this.lineNo++;
        this.line(line, 0, line.length);
        s = nl + 1;
      }
    }
    let lineNo = this.lineNo;
    let k6Lines = this.k6Lines;
    try {
      for (let e = chunk.indexOf(10, s); e >= 0; e = chunk.indexOf(10, s)) {
        lineNo++;
        if (k6Lines > 0 && e - s <= MAX_LINE && startsWith(chunk, s, e, METRIC_BYTES)) {
          k6Lines++;
          const c = chunk[s + METRIC_BYTES.length];
          if (c === 0x68 /* h */ && startsWith(chunk, s, e, DURATION_BYTES)) this.request(chunk, s, e, lineNo);
          else if (c === 0x64 /* d */ && startsWith(chunk, s, e, DROPPED_BYTES)) this.dropped(chunk, s, e, lineNo);
        } else {
          this.lineNo = lineNo;
          this.k6Lines = k6Lines;
          this.line(chunk, s, e);
          k6Lines = this.k6Lines;
        }
        s = e + 1;
      }
    } finally {
      this.lineNo = lineNo;
      this.k6Lines = k6Lines;
    }
    if (this.rest && s === 0) this.rest = Buffer.concat([this.rest, chunk]);
    else this.rest = s < chunk.length ? chunk.subarray(s) : null;
    if (this.rest && this.rest.length > MAX_LINE)
      throw new InputError(`${this.file}:${this.lineNo + 1}: line longer than ${MAX_LINE} bytes: not k6 output`);
  }

  // Line lineNo, buf[s, e), by every rule.
  line(buf, s, e) {
    const { file, lineNo } = this;
    if (e === s) {
      if (++this.blank > MAX_BLANK_LINES)
        throw new InputError(`${file}:${lineNo}: more than ${MAX_BLANK_LINES} blank lines: not k6 output`);
      return;
    }
    if (e - s > MAX_LINE) throw new InputError(`${file}:${lineNo}: line longer than ${MAX_LINE} bytes: not k6 output`);
    if (startsWith(buf, s, e, DURATION_BYTES)) {
      this.k6Lines++;
      this.request(buf, s, e, lineNo);
    } else if (startsWith(buf, s, e, DROPPED_BYTES)) {
      this.k6Lines++;
      this.dropped(buf, s, e, lineNo);
    } else if (startsWith(buf, s, e, METRIC_BYTES) || startsWith(buf, s, e, TYPE_METRIC_BYTES)) {
      this.k6Lines++;
    } else if (this.k6Lines === 0 && lineNo <= 3) {
      throw new InputError(
        `${file}:${lineNo}: not k6 JSON output (expected lines that start {"metric":... or {"type":"Metric",...)`,
      );
    } else if (buf[s] !== 0x7b /* { */) {
      throw new InputError(`${file}:${lineNo}: corrupt k6 output line (does not start with "{")`);
    }
  }

  request(buf, s, e, lineNo) {
    this.onRequest(
      this.byBytes.request(buf, s, e) ?? parseRequest(buf.toString('utf8', s, e), this.clock, this.file, lineNo),
    );
  }

  dropped(buf, s, e, lineNo) {
    this.onDropped(parseDropped(buf.toString('utf8', s, e), this.clock, this.file, lineNo));
  }
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
