// What a migration candidate cannot express: per tuning a migration row runs, each knob
// that tuning sets (bench.yaml) as today's controller applies it and as the candidate
// does — from each catalog entry's `knobs:` (charts/controllers/<name>/controller.yaml:
// a chart path, a capped value and why, or omitted and why). A knob both apply with the
// same value is no gap; every other one is, shown before the numbers: a candidate that is
// faster without the keepalive limit it cannot set is not the same configuration.
import { catalogEntry } from '../registry/catalog.js';

/** plan of `tailgate migrate` -> [{ tuning, candidateTuning, knob, value, from, candidate }] (kind only). */
export function knobGaps(cfg, plan) {
  if (plan.matrix.target !== 'kind' || !plan.cells.length) return [];
  const first = plan.cells[0];
  const [from, to] = [first.controllerName, first.concurrent.name];
  const entries = {
    from: catalogEntry(from, cfg.controllers[from]),
    to: catalogEntry(to, first.concurrent.controller),
  };
  const seen = new Set();
  const gaps = [];
  for (const c of plan.cells) {
    const [tuning, candidateTuning] = [c.tuningName, c.concurrent.tuningName];
    if (seen.has(`${tuning}\0${candidateTuning}`)) continue;
    seen.add(`${tuning}\0${candidateTuning}`);
    const today = knobsOf(cfg.tunings[tuning]);
    const theirs = knobsOf(cfg.tunings[candidateTuning]);
    for (const [knob, value] of Object.entries(today)) {
      const now = effect(entries.from.knobs[knob], value);
      const then =
        knob in theirs
          ? effect(entries.to.knobs[knob], theirs[knob])
          : { applied: false, why: `not set by tuning "${candidateTuning}"` };
      if (now.applied && then.applied && String(now.value) === String(then.value)) continue;
      if (!now.applied && !then.applied) continue; // neither applies it: nothing changes
      gaps.push({
        tuning,
        candidateTuning,
        knob,
        value,
        from: { controller: from, ...now },
        candidate: { controller: to, ...then },
      });
    }
  }
  return gaps;
}

function knobsOf(tuning = {}) {
  return Object.fromEntries(Object.entries(tuning).filter(([k]) => k !== 'description'));
}

// One knob on one controller: applied (with the value it lands as), or not, and why.
function effect(spec, value) {
  if (!spec) return { applied: false, why: 'not mapped by its catalog entry' };
  if (spec.omitted) return { applied: false, why: spec.omitted };
  if (spec.value !== undefined) return { applied: true, value: spec.value, why: spec.why };
  return { applied: true, value };
}

/** Lines for a terminal and for migration.md: one per gap. */
export function knobGapLines(gaps) {
  if (!gaps.length) return [];
  const side = (s) =>
    s.applied
      ? `${s.controller} sets ${s.value}${s.why ? ` (${s.why})` : ''}`
      : `${s.controller} does not set it (${s.why})`;
  return [
    `What the candidate cannot express as configured today (${gaps.length} knob${gaps.length > 1 ? 's' : ''}; charts/controllers/<name>/controller.yaml knobs):`,
    ...gaps.map(
      (g) =>
        `  ${g.tuning}${g.candidateTuning !== g.tuning ? ` → ${g.candidateTuning}` : ''}: ${g.knob} ${g.value} — ${side(g.from)}; ${side(g.candidate)}`,
    ),
  ];
}
