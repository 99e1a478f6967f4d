// How a Vegeta result of tailgate's own run is read: its attack's name (run/engines/
// vegeta-plan.js attackName) gives the schedule, the warm-up and the sweep step, so each
// request gets a phase, a step and its latency from the moment it was due to be sent.
// Coordinated omission is measured, not assumed: Vegeta releases request n at n/rate after
// its attack began, and a request sent later than that (no worker free, the machine busy)
// counts the wait as latency — the user would have waited it — and is counted as late.
import { InputError } from '../errors.js';

const NAME = /^tailgate(?: rate=(\d{1,7})\/(\d{1,9})ms)? warmup=(\d{1,9})ms(?: step=(r\d{1,7}-c\d{1,7}))?$/;
// Late beyond this, a send counts as one the engine did not make on time (load.lateSends).
export const LATE_MS = 10;
// Results of an attack seen before its first request's (seq 0): kept until it arrives.
const MAX_PENDING = 200_000;

/** {intervalMs | null, warmupMs, step | null} of a tailgate attack name; null for another. */
export function parseAttackName(name) {
  const m = typeof name === 'string' ? NAME.exec(name) : null;
  if (!m) return null;
  const [hits, perMs] = [Number(m[1]), Number(m[2])];
  return {
    intervalMs: m[1] && hits > 0 && perMs > 0 ? perMs / hits : null,
    warmupMs: Number(m[3]),
    step: m[4] ?? null,
  };
}

/**
 * Per attack of one file: the schedule of its requests, anchored at its request seq 0
 * (released when the attack began). add(r) takes {attack, seq, start, latencyMs, ...} and
 * calls emit(sample) in file order once its attack's anchor is known.
 */
export class Schedules {
  constructor({ file, emit, sides }) {
    this.file = file;
    this.emit = emit;
    this.sides = sides;
    this.attacks = new Map();
    this.late = 0;
    this.maxLagMs = 0;
    this.tailgate = 0;
  }

  add(r, lineNo) {
    const spec = parseAttackName(r.attack);
    if (!spec) return this.emit(this.sample(r, null, null, lineNo));
    this.tailgate++;
    let a = this.attacks.get(r.attack);
    if (!a) {
      if (this.attacks.size >= 1000) throw new InputError(`${this.file}:${lineNo}: more than 1000 attacks in one file`);
      this.attacks.set(r.attack, (a = { spec, anchor: null, pending: [], seqs: new Set() }));
    }
    if (a.anchor === null && r.seq === 0) {
      a.anchor = r.start;
      for (const [p, n] of a.pending) this.emit(this.sample(p, a, n));
      a.pending = [];
    }
    if (a.anchor === null) {
      if (a.pending.length >= MAX_PENDING)
        throw new InputError(`${this.file}:${lineNo}: attack has no request seq 0 within ${MAX_PENDING} results`);
      a.pending.push([r, lineNo]);
      return;
    }
    this.emit(this.sample(r, a, lineNo));
  }

  /** After the last line: an attack whose seq 0 never came is not tailgate's whole run. */
  finish() {
    for (const a of this.attacks.values())
      if (a.anchor === null)
        throw new InputError(`${this.file}: an attack's first request (seq 0) is missing: results truncated`);
  }

  sample(r, a, lineNo) {
    let ms = r.latencyMs;
    let phase;
    if (a) {
      const due = a.spec.intervalMs === null ? r.start : a.anchor + r.seq * a.spec.intervalMs;
      const lag = Math.max(0, r.start - due);
      if (lag > LATE_MS) this.late++;
      if (lag > this.maxLagMs) this.maxLagMs = lag;
      ms += lag;
      phase = due - a.anchor < a.spec.warmupMs ? 'warmup' : 'measure';
    }
    const s = { ts: r.start + r.latencyMs, ms, status: r.status, error: r.error };
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
