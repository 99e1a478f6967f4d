// One run as it happened, request by request, in no engine's words: the contract every
// load engine's reader is held to (tools/test/unit/engine-contract.test.js). A duet at
// 100/s a side for a 2 s warm-up and 10 s measured; one load generator alternates the
// sides (a, b, a, …), as both engines do. In it: on-time sends; a hiccup whose sends go
// out late; requests never sent (the generator's workers all held to the end); timeouts,
// refused and reset connections, 5xx; two pod kills whose cost differs by side; an error
// in the warm-up, never counted. Times are whole microseconds, so every engine's format
// writes them exactly.
//
// And what it means, whichever engine recorded it (meaningOf): what a user waited is
// counted from the scheduled send — a late send's wait is part of its latency — a request
// never sent is dropped, in the phase it was due in, for both sides of a duet; errors are
// counted by class, the warm-up's never.
import { AGGREGATE_LIMITS } from '../../src/ingest/aggregate.js';
import { classify } from '../../src/ingest/classify.js';
import { QUANTILES } from '../../src/result/quantiles.js';

export const SCENARIO = Object.freeze({
  script: 'steady',
  rate: 100,
  duration: '10s',
  warmup: '2s',
  vus: 50,
  maxVus: 2000,
  timeout: '2s',
  payload: '0KiB',
  runners: 1,
  faults: [],
});
// The cell: a duet loaded at once, so one generator sends both sides' rate.
export const CELL = Object.freeze({ id: 'contract', scenario: SCENARIO, concurrent: { name: 'head' }, repetition: 1 });

export const T0 = Date.UTC(2026, 10, 28, 12, 0, 0);
export const INTERVAL_MS = 5; // 200/s: both sides
export const WARMUP_MS = 2000;
export const WINDOW_MS = 12_000;
export const TIMEOUT_MS = 2000;
const DUE = WINDOW_MS / INTERVAL_MS; // 2400 requests due in the window
const NEVER_SENT = 12; // the last 12 due: no worker free to the end
const KILLS = [6000, 9000];
const HICCUP = { from: 3000, to: 4500, maxLagUs: 80_000 }; // sends late by up to 80 ms

// A deterministic spread of service times (a linear congruential generator).
function spread(seed) {
  let x = seed >>> 0;
  return () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x / 2 ** 32;
  };
}

// What a kill does to the requests due within 300 ms after it, side by side: the base's
// (a) cost and the head's (b), which loses more. Each entry is the k-th request of that
// side after the kill. kind: an error class, or 'slow' (answered, held up) — ms its wait.
const KILL_COST = {
  6000: {
    a: [
      ['refused', 1],
      ['refused', 1],
      ['reset', 3],
      ['slow', 180],
      ['refused', 1],
      ['slow', 420],
      ['timeout', TIMEOUT_MS],
      ['reset', 2],
      ['refused', 1],
      ['slow', 260],
    ],
    b: [
      ['refused', 1],
      ['http502', 4],
      ['refused', 1],
      ['reset', 3],
      ['slow', 650],
      ['refused', 1],
      ['timeout', TIMEOUT_MS],
      ['slow', 900],
      ['reset', 2],
      ['refused', 1],
      ['timeout', TIMEOUT_MS],
      ['slow', 240],
      ['refused', 1],
      ['reset', 5],
      ['slow', 310],
    ],
  },
  9000: {
    a: [
      ['http503', 3],
      ['slow', 150],
      ['slow', 120],
    ],
    b: [
      ['http503', 3],
      ['http504', TIMEOUT_MS - 5],
      ['slow', 400],
      ['http503', 2],
      ['slow', 220],
      ['slow', 130],
    ],
  },
};

/**
 * The run: {t0, requests: [{seq, side, due, lagUs, serviceUs, cls, status}], neverSent:
 * [{seq, due, phase}], events: [{ts, type, pod}]}. due: ms after t0; cls: the error
 * class or null; status: the HTTP status ('0': no response).
 */
export function timeline() {
  const rnd = spread(65);
  const requests = [];
  const killed = new Map(); // kill -> {a: n, b: n} requests of each side seen after it
  for (let seq = 0; seq < DUE - NEVER_SENT; seq++) {
    const due = seq * INTERVAL_MS;
    const side = seq % 2 === 0 ? 'a' : 'b';
    // Side b (the head) is a little slower: 2-8 ms against 2-6.5 ms.
    let serviceUs = Math.round((2 + rnd() * (side === 'a' ? 4.5 : 6)) * 1000);
    let cls = null;
    let lagUs = 0;
    if (due >= HICCUP.from && due < HICCUP.to)
      // Late by up to 80 ms at the start of the hiccup, catching up towards its end: sends
      // stay in order (the lag falls by less than the interval from one to the next).
      lagUs = Math.round((HICCUP.maxLagUs * (HICCUP.to - due)) / (HICCUP.to - HICCUP.from));
    const kill = KILLS.find((k) => due >= k && due < k + 300);
    if (kill !== undefined) {
      const seen = killed.get(kill) ?? { a: 0, b: 0 };
      killed.set(kill, seen);
      const hit = KILL_COST[kill][side][seen[side]++];
      if (hit) {
        const [kind, ms] = hit;
        serviceUs = ms * 1000;
        cls = kind === 'slow' ? null : kind;
      }
    }
    // A 503 in the warm-up: it counts in the whole run, never in what is measured.
    if (seq === 201) cls = 'http503';
    requests.push({ seq, side, due, lagUs, serviceUs, cls, status: STATUS[cls] ?? '200' });
  }
  const neverSent = Array.from({ length: NEVER_SENT }, (_, i) => {
    const seq = DUE - NEVER_SENT + i;
    return { seq, due: seq * INTERVAL_MS, phase: seq * INTERVAL_MS < WARMUP_MS ? 'warmup' : 'measure' };
  });
  const events = KILLS.map((k) => ({ ts: T0 + k + 2, type: 'pod-killed', pod: 'backend-1' }));
  return { t0: T0, requests, neverSent, events };
}

const STATUS = { http502: '502', http503: '503', http504: '504', timeout: '0', refused: '0', reset: '0' };

export const phaseOf = (r) => (r.due < WARMUP_MS ? 'warmup' : 'measure');
/** A request's end (epoch ms) and its wait from the scheduled send (ms). */
export const endOf = (t, r) => t.t0 + r.due + (r.lagUs + r.serviceUs) / 1000;
export const waitOf = (r) => (r.lagUs + r.serviceUs) / 1000;

/**
 * What a result of side `side` must say of the timeline: requests and errors by class
 * measured, dropped, each phase's requests and errors, percentiles (from the scheduled
 * send; at the rank HDR histograms read a quantile at: ⌈q·n⌉), and the fault cost's inputs.
 */
export function meaningOf(t, side) {
  const own = t.requests.filter((r) => r.side === side);
  const measured = own.filter((r) => phaseOf(r) === 'measure');
  const byClass = {};
  for (const r of measured) if (r.cls) byClass[r.cls] = (byClass[r.cls] ?? 0) + 1;
  const phases = {};
  for (const r of own) {
    const p = (phases[phaseOf(r)] ??= { requests: 0, errors: 0 });
    p.requests++;
    if (r.cls) p.errors++;
  }
  const waits = measured.map(waitOf).sort((x, y) => x - y);
  const percentiles = Object.fromEntries(
    Object.entries(QUANTILES).map(([name, pct]) => {
      const rank = Math.max(1, Math.ceil((pct / 100) * waits.length - 1e-9));
      return [name, waits[Math.min(waits.length, rank) - 1]];
    }),
  );
  // A kill's cost is read from the requests after the warm-up (ingest/aggregate.js).
  const cost = measured.map((r) => ({ end: endOf(t, r), ms: waitOf(r), cls: r.cls }));
  return {
    requests: measured.length,
    errors: measured.filter((r) => r.cls).length,
    byClass,
    // Never sent: dropped, for both sides of a duet (one generator; they cannot be told apart).
    dropped: t.neverSent.filter((d) => d.phase === 'measure').length,
    phases,
    percentiles,
    // Sends over 10 ms behind their schedule, both sides (one generator sent them).
    lateSends: t.requests.filter((r) => r.lagUs > 10_000).length,
    cost: {
      slow: cost.filter((r) => r.ms >= AGGREGATE_LIMITS.slowMs),
      lag: cost.filter((r) => r.ms >= AGGREGATE_LIMITS.lagMs),
      failed: cost.filter((r) => r.cls),
    },
  };
}

// The contract's classes are the ones ingest knows (a typo here would test nothing).
for (const [cls, status] of Object.entries(STATUS))
  if (status !== '0' && classify(status) !== cls) throw new Error(`engine-timeline: ${cls} is not status ${status}`);
