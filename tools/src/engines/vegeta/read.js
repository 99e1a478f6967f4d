// Vegeta's results, encoded by `vegeta encode --to json` (one JSON object per line) or
// `--to csv`: every request is a sample, so the result is as exact as k6's. Vegeta's own
// binary (gob) stream is Go-specific; `vegeta encode` is Vegeta's documented way out of it.
import { InputError } from '../../errors.js';
import { Clock } from '../clock.js';
import { forEachLine } from '../open.js';
import { LATE_MS, Schedules } from './attack.js';

const WHAT = 'Vegeta results (vegeta encode --to json or --to csv)';
// A line carries the response's headers and, unless `attack -max-body 0`, its body.
const MAX_LINE = 1 << 20;
const MAX_LATENCY_NS = 3_600_000 * 1e6;
// vegeta encode writes none; past a few (files joined by hand) a blank line is not its
// output, and a gzip of newlines must not keep ingest reading them.
const MAX_BLANK_LINES = 1000;

/**
 * onRequest({ts, ms, sent, status, error, phase?, step?, side?}) per result line; resolves with
 * {source, lines, meta}. A result of tailgate's own run (its attack named by the run) gets
 * its phase, step and schedule (attack.js); sides: {a: url, b: url} of a duet.
 */
export async function readVegeta(file, { onRequest, onDropped, sides = null }) {
  const clock = new Clock();
  const targets = sides ? sideTargets(sides) : null;
  const schedules = new Schedules({ file, emit: onRequest, dropped: onDropped, sides: targets });
  let format = null;
  let samples = 0;
  let earliest = Infinity;
  let latest = -Infinity;
  let blank = 0;
  const lines = await forEachLine(file, WHAT, MAX_LINE, (line, lineNo) => {
    if (!line.trim()) {
      if (++blank > MAX_BLANK_LINES)
        throw new InputError(`${file}:${lineNo}: more than ${MAX_BLANK_LINES} blank lines: not ${WHAT}`);
      return;
    }
    format ??= line[0] === '{' ? 'json' : /^\d/.test(line) ? 'csv' : 'none';
    if (format === 'none')
      throw new InputError(`${file}:${lineNo}: not ${WHAT}: a line starts with neither "{" nor a timestamp`);
    const r = format === 'json' ? fromJson(line, file, lineNo) : fromCsv(line, file, lineNo);
    const start = typeof r.timestamp === 'number' ? r.timestamp : clock.parse(r.timestamp, file, lineNo);
    samples++;
    earliest = Math.min(earliest, start);
    latest = Math.max(latest, start);
    // The end of the request, as k6 stamps its samples (fault events are placed on it).
    schedules.add({ ...r, start, latencyMs: r.latency / 1e6 }, lineNo);
  });
  if (!samples) throw new InputError(`${file}: no Vegeta results (empty file)`);
  schedules.finish();
  return {
    lines,
    source: {
      tool: 'vegeta',
      exact: true,
      // tailgate's own attacks: latency counted from each request's scheduled send, and
      // how far behind its schedule the engine ever fell.
      ...(schedules.tailgate
        ? {
            schedule: {
              lateSends: schedules.late,
              lateMs: LATE_MS,
              maxLagMs: Math.round(schedules.maxLagMs * 1000) / 1000,
              afterWindow: schedules.beyond,
            },
          }
        : {}),
    },
    // The attack's span as `vegeta report` gives it (first to last request sent), so the
    // achieved rate is Vegeta's own "rate"; --meta durationMs overrides it.
    meta: {
      ...(latest - earliest >= 1 ? { durationMs: Math.round(latest - earliest) } : {}),
      workload: { tool: 'vegeta' },
    },
  };
}

function fromJson(line, file, lineNo) {
  let o;
  try {
    o = JSON.parse(line);
  } catch {
    throw new InputError(`${file}:${lineNo}: not JSON (expected vegeta encode --to json)`);
  }
  if (!o || typeof o !== 'object' || typeof o.timestamp !== 'string')
    throw new InputError(`${file}:${lineNo}: timestamp: expected an RFC 3339 string`);
  const r = check({ timestamp: o.timestamp, code: o.code, latency: o.latency, error: o.error ?? '' }, file, lineNo);
  if (typeof o.attack === 'string' && o.attack.length <= 200) r.attack = o.attack;
  if (Number.isSafeInteger(o.seq) && o.seq >= 0) r.seq = o.seq;
  if (typeof o.url === 'string' && o.url.length <= 2048) r.url = o.url;
  return r;
}

// A duet's two targets as Vegeta names them (plan.js targetsText).
function sideTargets(sides) {
  return new Map(
    Object.entries(sides)
      .filter(([, u]) => u)
      .map(([side, u]) => [u, side]),
  );
}

// vegeta encode --to csv: timestamp (Unix ns), code, latency (ns), bytes out, bytes in,
// error (quoted when it holds a comma), then body, attack, seq, method, url, headers.
function fromCsv(line, file, lineNo) {
  const f = csvFields(line, 6, file, lineNo);
  const ns = f[0];
  if (!/^\d{1,19}$/.test(ns)) throw new InputError(`${file}:${lineNo}: timestamp: expected Unix nanoseconds`);
  const timestamp = Number(ns.slice(0, -6) || 0) + Number(ns.slice(-6)) / 1e6;
  return check({ timestamp, code: Number(f[1]), latency: Number(f[2]), error: f[5] }, file, lineNo);
}

function check(r, file, lineNo) {
  if (!Number.isInteger(r.code) || r.code < 0 || r.code > 999)
    throw new InputError(`${file}:${lineNo}: code: expected an HTTP status code (0 for none)`);
  if (!Number.isInteger(r.latency) || r.latency < 0 || r.latency > MAX_LATENCY_NS)
    throw new InputError(`${file}:${lineNo}: latency: expected nanoseconds from 0 to an hour`);
  if (typeof r.error !== 'string') throw new InputError(`${file}:${lineNo}: error: expected a string`);
  return { ...r, status: String(r.code) };
}

// The first n fields of a CSV line (RFC 4180 quoting, as Go's encoding/csv writes it).
function csvFields(line, n, file, lineNo) {
  const out = [];
  let i = 0;
  while (out.length < n) {
    if (line[i] === '"') {
      let v = '';
      i++;
      for (;;) {
        const q = line.indexOf('"', i);
        if (q < 0) throw new InputError(`${file}:${lineNo}: unterminated quoted CSV field`);
        v += line.slice(i, q);
        if (line[q + 1] === '"') {
          v += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
      out.push(v);
    } else {
      const c = line.indexOf(',', i);
      out.push(line.slice(i, c < 0 ? line.length : c));
      i = c < 0 ? line.length : c;
    }
    if (out.length < n) {
      if (line[i] !== ',') throw new InputError(`${file}:${lineNo}: expected ${n} or more CSV fields`);
      i++;
    }
  }
  return out;
}
