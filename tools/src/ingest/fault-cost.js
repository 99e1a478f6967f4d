// What a fault action cost the clients, per cell: errors per action, and the longest
// stall — from an action to the end of the last request that hung across it (pending at
// the action or sent within STALL_WINDOW_MS after it, and slower than a second). A
// request to a pooled connection of a killed pod that waits for the client's timeout is
// such a stall; so is a connect to a vanished address.
import { FAULT_ACTIONS } from '../faults/schedule.js';
import { round } from '../numbers.js';

const STALL_WINDOW_MS = 5000;

export function faultCost(events, slow, errors) {
  const actions = events.filter((e) => FAULT_ACTIONS.includes(e.type)).map((e) => e.ts);
  if (!actions.length) return null;
  let longest = 0;
  let at = null;
  for (const r of slow) {
    const start = r.end - r.ms;
    for (const a of actions) {
      if (start > a + STALL_WINDOW_MS || r.end < a) continue;
      if (r.end - a > longest) {
        longest = r.end - a;
        at = a;
      }
    }
  }
  return {
    actions: actions.length,
    errorsPerAction: round(errors / actions.length, 2),
    longestStallMs: round(longest, 0),
    ...(at === null ? {} : { longestStallAfter: round((at - actions[0]) / 1000, 3) }),
  };
}
