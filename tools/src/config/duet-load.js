// What one k6 run carries for a cell, as one rule for the two places that need it:
// validation (a profile's maxRate, config/validate.js) and the load engines (engines/load.js
// cellLoad). Each had its own coding — validation on compare: concurrent, the runner on
// concurrent && !alternate — and a matrix with alternate was checked at twice the rate
// its k6 ran.

/**
 * Does one k6 run load both sides of a duet at once? duet: the cell (or matrix) has two
 * sides; alternate: they are loaded one at a time, a k6 run each at the rate per side.
 */
export const oneK6BothSides = ({ duet, alternate }) => Boolean(duet) && !alternate;

/**
 * The scenario as its k6 runs it. One k6 for both sides alternates requests between base
 * and head at the scenario's rate per side, so it runs twice the rate — and starts with
 * both sides' VUs: a scenario's `vus` are what one side keeps busy. With one side's 500
 * for 1,000/s, a pod kill's stall held them all and k6 dropped iterations while it started
 * more. The ceiling stays the scenario's: VUs started mid-run cost the node CPU, and a
 * head capped at 50m CPU grew k6 towards 4,000 of them and starved the base too.
 * Otherwise the scenario itself (the same object).
 */
export function k6Load(scenario, sides) {
  if (!oneK6BothSides(sides)) return scenario;
  const s = scenario;
  return { ...s, rate: s.rate * 2, vus: s.vus * 2, maxVus: Math.max(s.vus * 2, s.maxVus) };
}
