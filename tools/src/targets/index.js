// Every target with its driver (loaded only when a run needs it): the run stage's view.
// What config and plan need of a target is in registry/target-rules.js.
import { TARGET_RULES } from '../registry/target-rules.js';

const DRIVERS = {
  local: () => import('./local/driver.js'),
  kind: () => import('./kube/driver.js'),
  cluster: () => import('./kube/driver.js'),
};

export const TARGETS = Object.freeze(
  Object.fromEntries(Object.entries(TARGET_RULES).map(([name, rules]) => [name, { ...rules, driver: DRIVERS[name] }])),
);

export function target(name) {
  if (!Object.hasOwn(TARGETS, name))
    throw new Error(`unknown target ${JSON.stringify(name)}; known: ${Object.keys(TARGETS).join(', ')}`);
  return TARGETS[name];
}
