// A named matrix of bench.yaml -> an ordered list of cells. Repetitions are
// interleaved (all cells of rep 1, then rep 2, ...) so that slow drift on a shared
// runner spreads over every cell instead of landing on one. On Kubernetes targets
// the controller is the outermost loop (a cluster per controller is expensive to
// recreate); repetitions stay interleaved within it — or, with `interleave` on kind,
// every controller's cluster stays up and controllers alternate too.
import { InputError } from '../errors.js';
import { targetRules as target } from '../registry/target-rules.js';
import { applyDuetBase } from './duet.js';
import { ROUTE_FAULTS } from '../faults/schedule.js';
import { matrixSizeProblems } from '../config/matrix-limits.js';
import { scenarioAsRun } from '../config/defaults.js';
import { withOverrides } from '../config/load.js';
import { didYouMean } from '../nearest.js';

/**
 * overrides: which cells (controllers, tunings, scenarios, repetitions), a duet's head or
 * base, alternate; and the values config lays over the matrix before its defaults and
 * checks (rate, duration: config/overrides.js) — cfg loaded with them by loadBench, or
 * loaded again with them here.
 */
export function planMatrix(loaded, matrixName, overrides = {}) {
  if (!Object.hasOwn(loaded.matrices, matrixName))
    throw new InputError(
      `${loaded.source}: no matrix "${matrixName}"; defined: ${Object.keys(loaded.matrices).join(', ')}${didYouMean(matrixName, Object.keys(loaded.matrices))}`,
    );
  const cfg = withOverrides(loaded, matrixName, overrides);
  const matrix = cfg.matrices[matrixName];
  const pick = (field, allowed) => {
    const list = overrides[field] ?? matrix[field];
    const bad = list.filter((x) => !allowed.includes(x));
    if (bad.length)
      throw new InputError(
        `--${field}: ${bad.map((b) => `"${b}"`).join(', ')} not allowed; choose from ${allowed.join(', ')}${didYouMean(bad[0], allowed)}`,
      );
    return list;
  };
  // Overrides may pick anything bench.yaml defines for this target, not only the matrix's own.
  const targetType = target(matrix.target).controllerType;
  const controllers = pick(
    'controllers',
    Object.keys(cfg.controllers).filter((c) => cfg.controllers[c].type === targetType),
  );
  const tunings = pick('tunings', Object.keys(cfg.tunings));
  const scenarios = pick('scenarios', Object.keys(cfg.scenarios));
  // A PR's duet (--duet-base) runs the pairs of its base's design: the gate judges it by
  // them (compare/pairs-of-record.js), so a head that cut its own budget runs the base's.
  const record = overrides.duetBase?.matrices?.[matrixName] ?? matrix;
  const repetitions = overrides.repetitions ?? record.repetitions;
  // Sequential pairs (a duet's maxRepetitions): repetitions beyond `repetitions` are optional,
  // run only while the runner's look at the cell's pairs cannot decide it. --repetitions and
  // alternate (--alternate lands on the matrix: config/overrides.js) ask for a fixed number.
  const maxRepetitions =
    matrix.compare === 'concurrent' && overrides.repetitions === undefined && !matrix.alternate
      ? Math.max(record.maxRepetitions ?? repetitions, repetitions)
      : repetitions;
  const size = matrixSizeProblems({ controllers, tunings, scenarios, repetitions: maxRepetitions });
  if (size.length) throw new InputError(`matrix "${matrixName}": ${size[0].message}`);
  const cells = [];
  const add = (c, t, s, repetition) => {
    // The matrix's duration (a duet PR matrix runs longer than the local one) and --rate.
    // One object for every cell of the scenario, not a copy each: its numbers
    // (config/normalise.js, made once per object) are made once, at load.
    const scenario = scenarioAsRun(cfg, matrix, s);
    cells.push({
      index: cells.length,
      key: `${c}/${t}/${s}`,
      id: `${c}/${t}/${s}/rep-${repetition}`,
      target: matrix.target,
      profile: matrix.profile,
      cluster: matrix.cluster,
      isolation: matrix.isolation,
      nodeLatency: matrix.nodeLatency,
      controllerName: c,
      controller: cfg.controllers[c],
      tuningName: t,
      tuning: cfg.tunings[t],
      scenarioName: s,
      scenario,
      repetition,
      ...(maxRepetitions > repetitions && {
        sequential: { minPairs: repetitions, maxPairs: maxRepetitions },
        ...(repetition > repetitions && { optional: true }),
      }),
    });
  };
  const reps = Array.from({ length: maxRepetitions }, (_, i) => i + 1);
  const inner = (c, rep) => tunings.forEach((t) => scenarios.forEach((s) => add(c, t, s, rep)));
  if (target(matrix.target).order === 'repetition-first')
    reps.forEach((rep) => controllers.forEach((c) => inner(c, rep)));
  else if (matrix.interleave)
    // Every cluster up at once: a tuning on all controllers, then each repetition's
    // scenarios controller by controller (targets/kube/steps.js follows this order).
    tunings.forEach((t) =>
      reps.forEach((rep) => scenarios.forEach((s) => controllers.forEach((c) => add(c, t, s, rep)))),
    );
  else
    controllers.forEach((c) =>
      tunings.forEach((t) => reps.forEach((rep) => scenarios.forEach((s) => add(c, t, s, rep)))),
    );
  const plan = {
    matrixName,
    matrix: { ...matrix, controllers, tunings, scenarios, repetitions },
    ...(maxRepetitions > repetitions && { sequential: { minPairs: repetitions, maxPairs: maxRepetitions } }),
    cells,
    gate: cfg.gate,
  };
  const head = overrides.abHead ?? (matrix.compare === 'concurrent' ? matrix.head : undefined);
  if (head) concurrentHead(cfg, plan, head, overrides.abHead ? '--ab-head' : `matrix "${matrixName}": head`);
  else if (overrides.duetBase) applyDuetBase(plan, overrides.duetBase, cfg);
  if (matrix.alternate) alternateSides(plan, overrides.alternate ? '--alternate' : `matrix "${matrixName}": alternate`);
  return plan;
}

// A duet's two releases loaded one side at a time (the kind driver's measure): interleaved
// pairs without a cluster per run. Route edits are made per side inside one k6 run; with
// one side loaded at a time they are not placed yet.
function alternateSides(plan, where) {
  if (!plan.ab)
    throw new InputError(
      `${where}: alternates the two sides of a duet: give a head (--ab-head, --duet-base, or the matrix's head with compare: concurrent)`,
    );
  if (plan.matrix.target !== 'kind')
    throw new InputError(`${where}: runs on target kind only (matrix "${plan.matrixName}" is ${plan.matrix.target})`);
  const routed = plan.cells.find(
    (c) => c.scenario.routes || c.scenario.faults.some((f) => ROUTE_FAULTS.includes(f.type)),
  );
  if (routed)
    throw new InputError(
      `${where}: scenario "${routed.scenarioName}" edits routes under load; alternate runs scenarios without routes or route faults (run it as a duet)`,
    );
  plan.alternate = true;
  for (const c of plan.cells) c.alternate = true;
}

// Concurrent A/B (a duet): every cell gets the head's controller and tuning beside its
// own — on local a second data plane, on kind a second release in the same cluster.
function concurrentHead(cfg, plan, spec, where) {
  const [controller, tuning = 'default'] = spec.split(':');
  const t = target(plan.matrix.target);
  if (!t.duet)
    throw new InputError(
      `${where}: concurrent A/B runs on targets local and kind (matrix "${plan.matrixName}" is ${plan.matrix.target})`,
    );
  const ofType = Object.keys(cfg.controllers).filter((c) => cfg.controllers[c].type === t.controllerType);
  if (!ofType.includes(controller))
    throw new InputError(
      `${where}: "${controller}" is not a ${t.controllerType} controller of ${cfg.source}; choose from ${ofType.join(', ')}`,
    );
  if (!Object.hasOwn(cfg.tunings, tuning))
    throw new InputError(`${where}: no tuning "${tuning}"; defined: ${Object.keys(cfg.tunings).join(', ')}`);
  if (plan.matrix.isolation === 'netns')
    throw new InputError(`${where}: concurrent A/B runs with isolation "loopback" only`);
  if (plan.cells.some((c) => c.scenario.loadFrom === 'cluster' || c.scenario.runners > 1 || !c.scenario.rate))
    throw new InputError(
      `${where}: a duet alternates one k6 between both sides: scenarios with a rate, one runner, load from the runner`,
    );
  plan.ab = { controller, tuning };
  for (const c of plan.cells)
    c.concurrent = {
      name: controller,
      controller: cfg.controllers[controller],
      tuningName: tuning,
      tuning: cfg.tunings[tuning],
    };
}
