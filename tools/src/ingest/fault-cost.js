// What a fault action cost the clients, per cell: errors per action; the longest hang —
// the slowest request (a second or more) pending at an action or sent within
// STALL_WINDOW_MS after it; and the longest stall — from an action to the end of the
// last such request, i.e. how long after a kill clients still waited. A connect to a
// vanished pod's address that nobody answers (Traefik's default dial timeout is 30 s) is
// such a hang; so is a request on a pooled connection to a killed pod.
//
// And the same per action (`perAction`), for the duet's paired failover test
// (compare/failover.js): both sides of a duet meet the same kills, so kill k's cost on
// the base and on the head is a pair. Per action, a request held up — one that waited at
// least the cut (`lag`, 100 ms: ingest/aggregate.js lagMs) from the moment it was actually
// sent, or failed — is the cost of exactly one action: the last one before it was sent
// (within the stall window), else the first one it was pending at — so a 5 s stall that
// outlasts the next kill 4 s later stays the first kill's, not both kills'. Per action:
//   heldUp      how many requests it held up;
//   exposureMs  from the action to the send of the last of them (0: none sent after it):
//               how long requests still went to the dead endpoint. At a constant arrival
//               rate a failover 30% slower is a window 30% longer and about 30% more
//               requests held up, whatever the client's timeout;
//   stallMs     from the action to the end of the last request of the cut or more — the
//               exposure plus that request's wait, on Traefik mostly the 10 s timeout;
//   hangMs      its slowest such request; errors: its failed requests.
// errors, heldUp and exposureMs are left out when not every failed request's time was kept.
// From the actual send, not the schedule: an engine that counts latency from the scheduled
// send (Vegeta, engines/vegeta/attack.js) adds its own lateness to a request, and one load
// generator alternates both sides of a duet, so its hiccup is shared and says nothing
// about base vs head — it must not make a request "held up", nor move it to another kill.
// Percentiles stay from the schedule (the user waited that long). A reader that gives no
// send time (k6: its latency starts at the send) has it at the end minus the latency.
// The run's summary above keeps its own rule.
// Per action the cut is lower than the summary's: a kill on haproxy-ingress holds up a
// bump of 100–500 ms requests on both sides for 0.3–3 s, and a 1 s request only now and
// then, on one side — at 1 s most kills had no stall to compare. The summary
// (longestHangMs, longestStallMs) stays at 1 s: history and the run table show it.
//
// The window: a request sent up to STALL_WINDOW_MS after an action is its cost (when no
// later action came first). On kind the bump's ≥ 100 ms requests are all sent within 3 s
// of the kill and none of ~6 000 requests before the first kill reached 100 ms; a window
// shorter than the bump would cut a failover that got slower off at the window — short
// of what the test is for — and one longer than the kills' spacing changes nothing, the
// next kill owns what follows it.
import { FAULT_ACTIONS } from '../faults/actions.js';
import { round } from '../numbers.js';
import { AGGREGATE_LIMITS } from './aggregate.js';

const STALL_WINDOW_MS = 5000;
// A schedule acts every few seconds: a day of kills every 100 ms would be 864k entries.
export const MAX_PER_ACTION = 1000;

/**
 * events: the run's placed events; slow: [{end, ms}] of its requests of a second or more;
 * errors: its failed requests' count; failed: [{end, ms, sent?}] of them when every one was
 * kept (null: each action's errors, held-up requests and exposure are not known and
 * perAction leaves them out);
 * lag: {requests: [{end, ms, sent?}] of its requests that waited cutMs or more from their
 * send, cutMs, complete: false when some were not kept}
 * for each action's stall (null: the slow list, at 1 s). sent: epoch ms of the actual send
 * (absent: end − ms).
 */
export function faultCost(events, slow, errors, failed = null, lag = null) {
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
  const cut = lag ?? { requests: slow, cutMs: AGGREGATE_LIMITS.slowMs, complete: true };
  return {
    actions: actions.length,
    errorsPerAction: round(errors / actions.length, 2),
    longestHangMs: round(hang, 0),
    longestStallMs: round(longest, 0),
    ...(at === null ? {} : { longestStallAfter: round((at - actions[0]) / 1000, 3) }),
    perAction: perAction(kept, cut, failed),
    perActionCutMs: cut.cutMs,
    // Some requests of the cut or more were not kept: a kill's stall may be short of its
    // true one, so the failover test does not decide on this run (compare/failover.js).
    ...(cut.complete ? {} : { perActionTruncated: true }),
    ...(acts.length > kept.length ? { perActionOmitted: acts.length - kept.length } : {}),
  };
}

const sentOf = (r) => r.sent ?? r.end - r.ms;

function perAction(acts, cut, failed) {
  const ts = acts.map((e) => e.ts);
  const known = Boolean(failed);
  const out = acts.map((e) => ({
    at: round((e.ts - ts[0]) / 1000, 3),
    type: e.type,
    ...(known ? { errors: 0, heldUp: 0, exposureMs: 0 } : {}),
    stallMs: 0,
    hangMs: 0,
  }));
  // Held up: every request of the cut or more, and every failed one under it (those of
  // the cut or more are on the cut's list already).
  const held = (r, k) => {
    if (!known) return;
    out[k].heldUp++;
    out[k].exposureMs = Math.max(out[k].exposureMs, round(sentOf(r) - ts[k], 0));
  };
  for (const r of cut.requests) {
    const k = actionOf(ts, r);
    if (k < 0) continue;
    out[k].hangMs = Math.max(out[k].hangMs, round(r.end - sentOf(r), 0));
    out[k].stallMs = Math.max(out[k].stallMs, round(r.end - ts[k], 0));
    held(r, k);
  }
  for (const r of failed ?? []) {
    const k = actionOf(ts, r);
    if (k < 0) continue;
    out[k].errors++;
    if (r.end - sentOf(r) < cut.cutMs) held(r, k);
  }
  return out;
}

/**
 * The action a request ({end, ms, sent?}) is the cost of, as an index into the actions'
 * sorted times ts (-1: none): the last one at or before its send, if it was sent within
 * the stall window after it; else the first one it was pending at.
 */
export function actionOf(ts, r) {
  const start = sentOf(r);
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
