// Folds request samples into histograms and counters: whole run, per phase, per
// one-second window. Pure state, no I/O, so it is tested without k6.
//
// Memory stays flat in the length of a run: a one-second window keeps its own
// histogram only while samples for it can still arrive (k6 writes them roughly in
// time order); WINDOW_GRACE_S after the newest second it is reduced to a row.
// A sample later than that still counts in the row, just not in its percentiles.
import { classify, emptyCounts } from './classify.js';
import { newHistogram, recordMs, valueAtMs } from '../result/histogram.js';
import { summarize } from '../result/quantiles.js';
import { MAX_RUN_MS } from '../units.js';

const WINDOW_GRACE_S = 10;
// What one run's output can hold, checked as samples arrive (k6 output comes from a
// user's script or a CI artifact). Each limit guards an allocation per distinct value:
// a histogram per phase, per sweep step, per open second, a row per second.
export const AGGREGATE_LIMITS = Object.freeze({
  // A day's measurement plus a day's warm-up plus an hour of set-up and grace.
  spanMs: 2 * MAX_RUN_MS + 3_600_000,
  phases: 16, // tailgate tags warmup and measure
  steps: 1000, // a sweep grid (config: rates × connections ≤ 400)
  tagChars: 64,
  // Several runners' outputs are read one after another, so their seconds stay open;
  // at most this many (30 min of a run, ~60 MB at sub-second latencies), older ones
  // become rows and a later sample in them counts without shaping their percentiles.
  openWindows: 1800,
  // Requests of a second or more, kept one by one for what a fault cost (ingest.js).
  slowMs: 1000,
  slowKept: 10_000,
  // Requests of 100 ms or more, for each kill's own stall (fault-cost.js perAction, the
  // duet's failover test): a kill on haproxy-ingress holds up a 0.3–3 s bump of 100–500
  // ms requests on both sides and only now and then a 1 s one, so the slow list above
  // leaves most kills without a stall. kind at 250 req/s a side: ~75 such requests per
  // kill, so 20 000 holds ~250 kills (a 3 s bump at the full rate: 26); a list that
  // overflows is flagged (lagAll), never silently read as the whole.
  lagMs: 100,
  lagKept: 20_000,
  // Failed requests' times, for the errors of each fault action (ingest/fault-cost.js).
  failedKept: 10_000,
});

export class Aggregate {
  // graceS: Infinity keeps every window open until the end — for the outputs of several
  // k6 runners read one after another, whose seconds overlap.
  constructor({ graceS = WINDOW_GRACE_S } = {}) {
    this.graceS = graceS;
    this.phases = new Map(); // phase -> {hist, requests, errors}
    this.steps = new Map(); // sweep step -> same
    this.open = new Map(); // epoch second -> Bucket, while samples may still arrive
    this.rows = new Map(); // epoch second -> finished timeline row
    this.newestSec = -Infinity;
    this.dropped = new Map(); // phase -> count
    this.firstTs = Infinity;
    this.lastTs = -Infinity;
    this.slow = []; // {end, ms} of measured requests of slowMs or more (k6 stamps the end)
    this.failed = []; // {end, ms, sent} of measured requests that failed, up to failedKept
    this.failedAll = true; // false once a failed request found the list full
    // {end, ms, sent} of measured requests that waited lagMs or more from their actual send
    // (a reader's `sent`; else the end minus the latency), up to lagKept: a kill's cost
    // counts what a request met, not how late the engine sent it (fault-cost.js).
    this.lag = [];
    this.lagAll = true; // false once such a request found the list full
  }

  addRequest(s) {
    const cls = classify(s.status, s.errorCode, s.error);
    const phase = s.phase ?? 'untagged';
    this.span(s.ts);
    tagged(this.phases, phase, 'phase', AGGREGATE_LIMITS.phases).add(s.ms, cls);
    if (s.ms >= AGGREGATE_LIMITS.slowMs && phase !== 'warmup' && this.slow.length < AGGREGATE_LIMITS.slowKept)
      this.slow.push({ end: s.ts, ms: s.ms });
    if (waited(s) >= AGGREGATE_LIMITS.lagMs && phase !== 'warmup') this.keepLag(s, 1);
    if (cls && phase !== 'warmup') this.keepFailed(s, 1);
    if (s.step) tagged(this.steps, s.step, 'step', AGGREGATE_LIMITS.steps).add(s.ms, cls);
    const sec = Math.floor(s.ts / 1000);
    const row = this.rows.get(sec);
    if (row) {
      row.requests++;
      row.late = (row.late ?? 0) + 1;
      if (cls) {
        row.errors++;
        row.errorsByClass = { ...row.errorsByClass, [cls]: (row.errorsByClass?.[cls] ?? 0) + 1 };
      }
    } else {
      const w = this.window(sec);
      w.add(s.ms, cls);
      w.phase = phase;
      if (sec > this.newestSec) this.advance(sec);
      // A second older than the grace that nothing will close: a row at once.
      else if (sec < this.newestSec - this.graceS) this.close(sec, w);
    }
  }

  // k requests alike, as one weighted record: fortio claims its requests in buckets, and
  // a loop per claimed request would let a few hundred bytes set minutes of work.
  // addRequest stays its own copy: it runs once per k6 request.
  addRequests(s, k) {
    const cls = classify(s.status, s.errorCode, s.error);
    const phase = s.phase ?? 'untagged';
    this.span(s.ts);
    tagged(this.phases, phase, 'phase', AGGREGATE_LIMITS.phases).addMany(s.ms, cls, k);
    if (s.ms >= AGGREGATE_LIMITS.slowMs && phase !== 'warmup')
      for (let i = 0; i < k && this.slow.length < AGGREGATE_LIMITS.slowKept; i++)
        this.slow.push({ end: s.ts, ms: s.ms });
    if (waited(s) >= AGGREGATE_LIMITS.lagMs && phase !== 'warmup') this.keepLag(s, k);
    if (cls && phase !== 'warmup') this.keepFailed(s, k);
    if (s.step) tagged(this.steps, s.step, 'step', AGGREGATE_LIMITS.steps).addMany(s.ms, cls, k);
    const sec = Math.floor(s.ts / 1000);
    const row = this.rows.get(sec);
    if (row) {
      row.requests += k;
      row.late = (row.late ?? 0) + k;
      if (cls) {
        row.errors += k;
        row.errorsByClass = { ...row.errorsByClass, [cls]: (row.errorsByClass?.[cls] ?? 0) + k };
      }
    } else {
      const w = this.window(sec);
      w.addMany(s.ms, cls, k);
      w.phase = phase;
      if (sec > this.newestSec) this.advance(sec);
      else if (sec < this.newestSec - this.graceS) this.close(sec, w);
    }
  }

  keepFailed(s, k) {
    const room = AGGREGATE_LIMITS.failedKept - this.failed.length;
    if (k > room) this.failedAll = false;
    for (let i = 0; i < Math.min(k, room); i++) this.failed.push({ end: s.ts, ms: s.ms, sent: sentOf(s) });
  }

  keepLag(s, k) {
    const room = AGGREGATE_LIMITS.lagKept - this.lag.length;
    if (k > room) this.lagAll = false;
    for (let i = 0; i < Math.min(k, room); i++) this.lag.push({ end: s.ts, ms: s.ms, sent: sentOf(s) });
  }

  addDropped(d) {
    const phase = d.phase ?? 'untagged';
    this.span(d.ts);
    if (!this.dropped.has(phase) && this.dropped.size >= AGGREGATE_LIMITS.phases)
      tooMany('phase', AGGREGATE_LIMITS.phases);
    this.dropped.set(phase, (this.dropped.get(phase) ?? 0) + d.count);
    const sec = Math.floor(d.ts / 1000);
    const row = this.rows.get(sec);
    if (row) row.dropped += d.count;
    else this.window(sec).dropped += d.count;
  }

  span(ts) {
    if (ts < this.firstTs) this.firstTs = ts;
    if (ts > this.lastTs) this.lastTs = ts;
    if (this.lastTs - this.firstTs > AGGREGATE_LIMITS.spanMs)
      throw sampleError(
        `timestamps span more than ${AGGREGATE_LIMITS.spanMs / 3_600_000} h: not the output of one run`,
      );
  }

  window(sec) {
    if (!this.open.has(sec) && this.open.size >= AGGREGATE_LIMITS.openWindows) {
      let oldest = Infinity;
      for (const k of this.open.keys()) if (k < oldest) oldest = k;
      this.close(oldest, this.open.get(oldest));
    }
    return bucket(this.open, sec, 2);
  }

  advance(sec) {
    this.newestSec = sec;
    for (const [s, w] of this.open) if (s < sec - this.graceS) this.close(s, w);
  }

  close(sec, w) {
    this.open.delete(sec);
    const row = {
      epoch: sec,
      phase: w.phase,
      requests: w.requests,
      errors: w.errorsTotal(),
      dropped: w.dropped,
      p50: valueAtMs(w.hist, 50),
      p99: valueAtMs(w.hist, 99),
      max: w.requests ? w.hist.getValueAtPercentile(100) / 1000 : null,
    };
    const byClass = Object.fromEntries(Object.entries(w.errors).filter(([, n]) => n > 0));
    if (Object.keys(byClass).length) row.errorsByClass = byClass;
    this.rows.set(sec, row);
  }

  /**
   * The phase the gate reads: "measure" when tagged; a run without phase tags (another
   * script) is measured whole. A run with phases but no "measure" (only warm-up) has
   * measured nothing: warm-up samples are never gated.
   */
  measured() {
    if (this.phases.has('measure')) return this.phases.get('measure');
    const tagged = [...this.phases.keys()].some((p) => p !== 'untagged');
    return tagged ? combine([]) : combine([...this.phases.values()]);
  }

  wholeRun(confidence) {
    const all = combine([...this.phases.values()]);
    for (const d of this.dropped.values()) all.dropped += d;
    return all.summary(confidence, all.dropped);
  }

  phaseSummaries(confidence) {
    const out = {};
    for (const [name, b] of this.phases) out[name] = b.summary(confidence, this.dropped.get(name) ?? 0);
    return out;
  }

  stepSummaries(confidence) {
    const out = {};
    for (const [name, b] of this.steps) out[name] = b.summary(confidence, 0);
    return out;
  }

  timeline() {
    for (const [s, w] of this.open) this.close(s, w);
    if (!this.rows.size) return [];
    const secs = [...this.rows.keys()].sort((a, b) => a - b);
    const t0 = secs[0];
    return secs.map((sec) => ({ t: sec - t0, ...this.rows.get(sec) }));
  }
}

// When a request was actually sent: the reader's word (an engine that counts latency from
// the schedule, Vegeta), else its end minus its latency (k6's starts at the send).
const sentOf = (s) => s.sent ?? s.ts - s.ms;
const waited = (s) => s.ts - sentOf(s);

class Bucket {
  constructor(digits = 3) {
    this.hist = newHistogram(digits);
    this.requests = 0;
    this.errors = emptyCounts();
    this.dropped = 0;
  }

  add(ms, cls) {
    recordMs(this.hist, ms);
    this.requests++;
    if (cls) this.errors[cls]++;
  }

  addMany(ms, cls, k) {
    // Rounded as recordMs rounds (result/histogram.js), which has no weighted form.
    this.hist.recordValueWithCount(Math.round(ms * 1000), k);
    this.requests += k;
    if (cls) this.errors[cls] += k;
  }

  errorsTotal() {
    let n = 0;
    for (const v of Object.values(this.errors)) n += v;
    return n;
  }

  summary(confidence, dropped) {
    return {
      requests: this.requests,
      errors: { total: this.errorsTotal(), byClass: { ...this.errors } },
      dropped,
      latency: this.latency(confidence),
    };
  }

  // Once the samples are in: the measured phase's is read twice (the result's latency and
  // its phase), and each is a score of passes over the histogram. A copy each time, so no
  // two places of a result share an object.
  latency(confidence) {
    if (this.summarized?.confidence !== confidence)
      this.summarized = { confidence, value: summarize(this.hist, confidence) };
    return structuredClone(this.summarized.value);
  }
}

function tagged(map, key, what, max) {
  if (!map.has(key)) {
    if (key.length > AGGREGATE_LIMITS.tagChars)
      throw sampleError(`${what} tag longer than ${AGGREGATE_LIMITS.tagChars} characters`);
    if (map.size >= max) tooMany(what, max);
  }
  return bucket(map, key);
}

function tooMany(what, max) {
  throw sampleError(`more than ${max} distinct ${what} tags: not a tailgate scenario's output`);
}

// The reader that fed the sample adds the file and line (engines/k6/read.js).
function sampleError(message) {
  return Object.assign(new RangeError(message), { sample: true });
}

function bucket(map, key, digits = 3) {
  let b = map.get(key);
  if (!b) map.set(key, (b = new Bucket(digits)));
  return b;
}

function combine(buckets) {
  const out = new Bucket();
  for (const b of buckets) {
    out.hist.add(b.hist);
    out.requests += b.requests;
    for (const [k, v] of Object.entries(b.errors)) out.errors[k] += v;
  }
  return out;
}
