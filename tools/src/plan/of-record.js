// The cells a PR answers for. The list of cells is a rule like the thresholds: it comes
// from the PR's base commit, or a PR could drop the very cell it slows from its matrix and
// pass without a word. So the plan of record is the base's matrix — every cell of it the
// head still defines — plus the cells the head adds. A base cell whose controller, tuning
// or scenario the head no longer defines cannot be measured (and nothing of it can regress:
// it is gone); it is named as removed, never silently dropped (docs/gate.md).
import { planMatrix } from './plan.js';
import { targetRules as target } from '../registry/target-rules.js';

/**
 * -> the head's plan of `matrixName` with the base's cells added (cells re-indexed), and
 * `removed`: [{ key, why }] — base cells the head no longer defines. `base`: the base's
 * bench.yaml as loaded (config/base-ref.js). Without a base matrix (no base bench.yaml, or
 * no such matrix there) the head's plan alone, removed [].
 * Command-line cell picks (--controllers …) narrow a run on purpose: no widening then.
 * plan: planMatrix(cfg, matrixName, overrides) when the caller has it (made once).
 */
export function planOfRecord(cfg, matrixName, { base = null, overrides = {}, plan = null } = {}) {
  plan ??= planMatrix(cfg, matrixName, overrides);
  const baseMatrix = base?.matrices?.[matrixName];
  const picked = ['controllers', 'tunings', 'scenarios'].some((k) => overrides[k] !== undefined);
  if (!baseMatrix || picked) return { ...plan, removed: [] };
  const type = target(plan.matrix.target).controllerType;
  const defined = {
    controller: (c) => cfg.controllers[c]?.type === type,
    tuning: (t) => Object.hasOwn(cfg.tunings, t),
    scenario: (s) => Object.hasOwn(cfg.scenarios, s),
  };
  const have = new Set(plan.cells.map((c) => c.key));
  const extra = [];
  const removed = [];
  for (const c of baseMatrix.controllers ?? [])
    for (const t of baseMatrix.tunings ?? ['default'])
      for (const s of baseMatrix.scenarios ?? []) {
        const key = `${c}/${t}/${s}`;
        if (have.has(key) || extra.some((e) => e.key === key) || removed.some((r) => r.key === key)) continue;
        const gone = Object.entries({ controller: c, tuning: t, scenario: s }).filter(([k, v]) => !defined[k](v));
        if (gone.length)
          removed.push({
            key,
            why: `the head's bench config no longer defines its ${gone.map(([k, v]) => `${k} "${v}"`).join(', ')}`,
          });
        else extra.push({ key, c, t, s });
      }
  if (!extra.length) return { ...plan, removed };
  const uniq = (k) => [...new Set(extra.map((e) => e[k]))];
  const more = planMatrix(cfg, matrixName, {
    ...overrides,
    controllers: uniq('c'),
    tunings: uniq('t'),
    scenarios: uniq('s'),
  }).cells.filter((cell) => extra.some((e) => e.key === cell.key));
  const cells = [...plan.cells, ...more].map((cell, index) => ({ ...cell, index }));
  return { ...plan, cells, removed, fromBase: extra.map((e) => e.key) };
}
