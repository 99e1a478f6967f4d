// What a fault action cost the clients, per cell: errors per action; the longest hang —
// the slowest request (a second or more) pending at an action or sent within
// STALL_WINDOW_MS after it; and the longest stall — from an action to the end of the
// last such request, i.e. how long after a kill clients still waited. A connect to a
// vanished pod's address that nobody answers (Traefik's default dial timeout is 30 s) is
// such a hang; so is a request on a pooled connection to a killed pod.
//
// And the same per action (`perAction`), for the duet's paired failover test
// (compare/failover.js): both sides of a duet meet the same kills, so kill k's cost on
// the base and on the head is a pair. Per action, a slow or failed request is the cost of
// exactly one action: the last one sent before it (within the stall window), else the
// first one it was pending at — so a 5 s stall that outlasts the next kill 4 s later
// stays the first kill's, not both kills'. The run's summary above keeps its own rule.
import { FAULT_ACTIONS } from '../faults/schedule.js';
import { round } from '../numbers.js';

const STALL_WINDOW_MS = 5000;
// A schedule acts every few seconds: a day of kills every 100 ms would be 864k entries.
export const MAX_PER_ACTION = 1000;

/**
 * events: the run's placed events; slow: [{end, ms}] of its requests of a second or more;
 * errors: its failed requests' count; failed: [{end, ms}] of them when every one was kept
 * (null: the errors of each action are not known and perAction leaves them out).
 */
export function faultCost(events, slow, errors, failed = null) {
  const acts = events.filter((e) => FAULT_ACTIONS.includes(e.type)).sort((a, b) => a.ts - b.ts);
  const actions = acts.map((e) => e.ts);
  if (!actions.length) return null;
  let longest = 0;
  let hang = 0;
  let at = null;
  for (const r of slow) {
    const start = r.end - r.ms;
    for (const a of actions) {
      if (start > a + STALL_WINDOW_MS || r.end < a) continue;
      hang = Math.max(hang, r.ms);
      if (r.end - a > longest) {
        longest = r.end - a;
        at = a;
      }
    }
  }
  const kept = acts.slice(0, MAX_PER_ACTION);
  return {
    actions: actions.length,
    errorsPerAction: round(errors / actions.length, 2),
    longestHangMs: round(hang, 0),
    longestStallMs: round(longest, 0),
    ...(at === null ? {} : { longestStallAfter: round((at - actions[0]) / 1000, 3) }),
    perAction: perAction(kept, slow, failed),
    ...(acts.length > kept.length ? { perActionOmitted: acts.length - kept.length } : {}),
  };
}

function perAction(acts, slow, failed) {
  const ts = acts.map((e) => e.ts);
  const out = acts.map((e) => ({
    at: round((e.ts - ts[0]) / 1000, 3),
    type: e.type,
    ...(failed ? { errors: 0 } : {}),
    stallMs: 0,
    hangMs: 0,
  }));
  for (const r of slow) {
    const k = owner(ts, r);
    if (k < 0) continue;
    out[k].hangMs = Math.max(out[k].hangMs, round(r.ms, 0));
    out[k].stallMs = Math.max(out[k].stallMs, round(r.end - ts[k], 0));
  }
  for (const r of failed ?? []) {
    const k = owner(ts, r);
    if (k >= 0) out[k].errors++;
  }
  return out;
}

// The action a request is the cost of (-1: none): the last one at or before its start,
// if it started within the stall window after it; else the first one it was pending at.
function owner(ts, r) {
  const start = r.end - r.ms;
  let lo = 0;
  let hi = ts.length - 1;
  let last = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (ts[mid] <= start) {
      last = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  if (last >= 0 && start <= ts[last] + STALL_WINDOW_MS) return last;
  const next = last + 1;
  return next < ts.length && ts[next] <= r.end ? next : -1;
}
