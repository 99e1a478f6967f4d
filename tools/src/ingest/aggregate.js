// Folds request samples into histograms and counters: whole run, per phase, per
// one-second window. Pure state, no I/O, so it is tested without k6.
//
// Memory stays flat in the length of a run: a one-second window keeps its own
// histogram only while samples for it can still arrive (k6 writes them roughly in
// time order); WINDOW_GRACE_S after the newest second it is reduced to a row.
// A sample later than that still counts in the row, just not in its percentiles.
import { classify, emptyCounts } from './classify.js';
import { newHistogram, recordMs, summarize, valueAtMs } from '../result/histogram.js';

const WINDOW_GRACE_S = 10;

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
  }

  addRequest(s) {
    const cls = classify(s.status, s.errorCode, s.error);
    const phase = s.phase ?? 'untagged';
    bucket(this.phases, phase).add(s.ms, cls);
    if (s.step) bucket(this.steps, s.step).add(s.ms, cls);
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
      const w = bucket(this.open, sec);
      w.add(s.ms, cls);
      w.phase = phase;
      if (sec > this.newestSec) this.advance(sec);
    }
    if (s.ts < this.firstTs) this.firstTs = s.ts;
    if (s.ts > this.lastTs) this.lastTs = s.ts;
  }

  addDropped(d) {
    const phase = d.phase ?? 'untagged';
    this.dropped.set(phase, (this.dropped.get(phase) ?? 0) + d.count);
    const sec = Math.floor(d.ts / 1000);
    const row = this.rows.get(sec);
    if (row) row.dropped += d.count;
    else bucket(this.open, sec).dropped += d.count;
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

class Bucket {
  constructor() {
    this.hist = newHistogram();
    this.requests = 0;
    this.errors = emptyCounts();
    this.dropped = 0;
  }

  add(ms, cls) {
    recordMs(this.hist, ms);
    this.requests++;
    if (cls) this.errors[cls]++;
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
      latency: summarize(this.hist, confidence),
    };
  }
}

function bucket(map, key) {
  let b = map.get(key);
  if (!b) map.set(key, (b = new Bucket()));
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
