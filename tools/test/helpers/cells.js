// Builds a cell the way the planner does, from plain objects, for tests that drive
// the local target directly without a bench.yaml file.
import { applyDefaults } from '../../src/config/defaults.js';

export function makeCell({ controller, scenario, tuning = {}, repetition = 1, index = 0 }) {
  const cfg = applyDefaults({
    apiVersion: 'tailgate/v1',
    kind: 'Bench',
    controllers: { c: { type: 'local', ...controller } },
    scenarios: { s: scenario },
    tunings: { t: tuning },
    matrices: { m: { target: 'local', controllers: ['c'], scenarios: ['s'] } },
  });
  return {
    index,
    key: 'c/t/s',
    id: `c/t/s/rep-${repetition}`,
    target: 'local',
    profile: 'local',
    controllerName: controller.variant,
    controller: cfg.controllers.c,
    tuningName: 't',
    tuning: cfg.tunings.t,
    scenarioName: 's',
    scenario: cfg.scenarios.s,
    repetition,
  };
}
