// One measurement of a cell, the same on every target: the load and the scenario's fault
// schedule on one clock. The faults are stopped whatever happens to the load engine (it
// fails, times out, is interrupted): a fault loop must never keep killing pods during
// teardown.
import { InfraError } from '../errors.js';
import { faultOffsetMs, startFaults } from '../faults/schedule.js';
import { faultTiming, scenarioMs } from '../config/normalise.js';

/** startLoad() -> Promise<the engine's outcome>. Resolves with it; throws on fault errors. */
export async function measureWithFaults({ scenario, startLoad, pods, routes = null, events }) {
  const load = startLoad();
  const faults = startFaults(scenario.faults.map(faultTiming), {
    pods,
    routes,
    events,
    offsetMs: faultOffsetMs(scenarioMs(scenario).warmup),
  });
  let outcome;
  let faultErrors;
  try {
    outcome = await load;
  } finally {
    faultErrors = await faults.stop();
  }
  if (faultErrors.length)
    throw new InfraError(`fault schedule failed: ${faultErrors.map((e) => e.message).join('; ')}`);
  return outcome;
}
