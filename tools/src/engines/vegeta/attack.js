// How a Vegeta result of tailgate's own run is read: its attack's name (plan.js
// attackName) gives the schedule, the warm-up and the sweep step, so each
// request gets a phase, a step and its latency from the moment it was due to be sent.
// Coordinated omission is measured, not assumed: Vegeta releases request n at n/rate after
// its attack began, and a request sent later than that (no worker free, the machine busy)
// counts the wait as latency — the user would have waited it — and is counted as late.
import { InputError } from '../../errors.js';

const NAME =
  /^tailgate(?: rate=(\d{1,7})\/(\d{1,9})ms)? warmup=(\d{1,9})ms window=(\d{1,9})ms(?: step=(r\d{1,7}-c\d{1,7}))?(?: runner=\d{1,4}\/\d{1,4})?$/;
// Late beyond this, a send counts as one the engine did not make on time (load.lateSends).
export const LATE_MS = 10;
// Results of an attack seen before its first request's (seq 0): kept until it arrives.
const MAX_PENDING = 200_000;

/** {intervalMs | null, warmupMs, windowMs, step | null} of a tailgate attack name; null for another. */
export function parseAttackName(name) {
  const m = typeof name === 'string' ? NAME.exec(name) : null;
  if (!m) return null;
  const [hits, perMs] = [Number(m[1]), Number(m[2])];
  const paced = Boolean(m[1]) && hits > 0 && perMs > 0;
  return {
    intervalMs: paced ? perMs / hits : null,
    ...(paced ? { hits, perMs } : {}),
    warmupMs: Number(m[3]),
    windowMs: Number(m[4]),
    step: m[5] ?? null,
  };
}

/**
 * Per attack of one file: the schedule of its requests, anchored at its request seq 0
 * (released when the attack began). add(r) takes {attack, seq, start, latencyMs, ...} and
 * calls emit(sample) in file order once its attack's anchor is known.
 */
export class Schedules {
  constructor({ file, emit, dropped = () => {}, sides }) {
    this.file = file;
    this.emit = emit;
    this.dropped = dropped;
    this.sides = sides;
    this.attacks = new Map();
    this.late = 0;
    this.maxLagMs = 0;
    this.tailgate = 0;
    this.beyond = 0;
  }

  add(r, lineNo) {
    const spec = parseAttackName(r.attack);
    if (!spec) return this.emit(this.sample(r, null, lineNo));
    if (!Number.isSafeInteger(r.seq))
      throw new InputError(
        `${this.file}:${lineNo}: seq: expected the request's sequence number (vegeta encode --to json)`,
      );
    this.tailgate++;
    let a = this.attacks.get(r.attack);
    if (!a) {
      if (this.attacks.size >= 1000) throw new InputError(`${this.file}:${lineNo}: more than 1000 attacks in one file`);
      this.attacks.set(r.attack, (a = { spec, anchor: null, pending: [], sent: 0 }));
    }
    if (a.anchor === null && r.seq === 0) {
      a.anchor = r.start;
      for (const [p, n] of a.pending) this.put(this.sample(p, a, n));
      a.pending = [];
    }
    if (a.anchor === null) {
      if (a.pending.length >= MAX_PENDING)
        throw new InputError(`${this.file}:${lineNo}: attack has no request seq 0 within ${MAX_PENDING} results`);
      a.pending.push([r, lineNo]);
      return;
    }
    this.put(this.sample(r, a, lineNo));
  }

  put(sample) {
    if (sample) this.emit(sample);
  }

  /**
   * After the last line: an attack whose seq 0 never came is not tailgate's whole run. A
   * paced attack that sent fewer requests in its window than its schedule asked (no worker
   * free to the end: maxVus reached) did not send the rest at all — k6 would have dropped
   * those iterations, and they count as dropped, in the phase they were due in.
   */
  finish() {
    for (const a of this.attacks.values()) {
      if (a.anchor === null)
        throw new InputError(`${this.file}: an attack's first request (seq 0) is missing: results truncated`);
      if (a.spec.intervalMs === null) continue;
      const due = (ms) => Math.ceil((ms * a.spec.hits) / a.spec.perMs - 1e-9);
      const short = due(a.spec.windowMs) - a.sent;
      if (short <= 0) continue;
      const inWarmup = Math.min(short, Math.max(0, due(a.spec.warmupMs) - a.sent));
      const ts = a.anchor + a.spec.windowMs;
      if (inWarmup) this.dropped({ ts, count: inWarmup, phase: 'warmup' });
      if (short > inWarmup) this.dropped({ ts, count: short - inWarmup, phase: 'measure' });
    }
  }

  sample(r, a, lineNo) {
    let ms = r.latencyMs;
    let phase;
    if (a) {
      const due = a.spec.intervalMs === null ? r.start : a.anchor + r.seq * a.spec.intervalMs;
      // Due at or after the attack's end: a request k6's executor would not have started.
      if (a.spec.intervalMs !== null && due - a.anchor >= a.spec.windowMs) {
        this.beyond++;
        return null;
      }
      // Sequence numbers are given at send, in order: those in the window are 0 … sent − 1.
      if (r.seq + 1 > a.sent) a.sent = r.seq + 1;
      const lag = Math.max(0, r.start - due);
      if (lag > LATE_MS) this.late++;
      if (lag > this.maxLagMs) this.maxLagMs = lag;
      ms += lag;
      phase = due - a.anchor < a.spec.warmupMs ? 'warmup' : 'measure';
    }
    // sent: when Vegeta actually sent it — a kill's cost is counted from there, not from
    // the schedule (ingest/fault-cost.js), while ms, from the schedule, feeds percentiles.
    const s = { ts: r.start + r.latencyMs, ms, sent: r.start, status: r.status, error: r.error };
    if (phase) s.phase = phase;
    if (a?.spec.step) s.step = a.spec.step;
    if (this.sides) {
      const side = this.sides.get(r.url);
      if (side === undefined) throw new InputError(`${this.file}:${lineNo}: url: not one of the duet's two targets`);
      s.side = side;
    }
    return s;
  }
}
