// What a fault action cost the clients, per cell: errors per action; the longest hang —
// the slowest request (a second or more) pending at an action or sent within
// STALL_WINDOW_MS after it; and the longest stall — from an action to the end of the
// last such request, i.e. how long after a kill clients still waited. A connect to a
// vanished pod's address that nobody answers (Traefik's default dial timeout is 30 s) is
// such a hang; so is a request on a pooled connection to a killed pod.
import { FAULT_ACTIONS } from '../faults/schedule.js';
import { round } from '../numbers.js';

const STALL_WINDOW_MS = 5000;

export function faultCost(events, slow, errors) {
  const actions = events.filter((e) => FAULT_ACTIONS.includes(e.type)).map((e) => e.ts);
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
  return {
    actions: actions.length,
    errorsPerAction: round(errors / actions.length, 2),
    longestHangMs: round(hang, 0),
    longestStallMs: round(longest, 0),
    ...(at === null ? {} : { longestStallAfter: round((at - actions[0]) / 1000, 3) }),
  };
}
