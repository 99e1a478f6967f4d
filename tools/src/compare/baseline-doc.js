// Results of one cell (several repetitions) -> a baseline document: histograms
// merged exactly, per-repetition quantiles kept, provenance recorded.
import { InputError } from '../errors.js';
import { decode, encode, merge } from '../result/histogram.js';
import { summarize } from '../result/quantiles.js';
import { BASELINE_SCHEMA_VERSION, TAILGATE_VERSION } from '../version.js';
import { workloadOf } from '../result/workload.js';

export function buildBaseline({ cellKey, profile, reps }) {
  const profiles = new Set(reps.map((r) => r.meta?.profile));
  if (profiles.size !== 1 || !profiles.has(profile)) {
    throw new InputError(
      `${cellKey}: results are from profile(s) ${[...profiles].join(', ')}, not "${profile}"; a baseline holds one profile's numbers only`,
    );
  }
  const prints = new Set(reps.map((r) => r.meta?.machine?.fingerprint));
  if (prints.size !== 1)
    throw new InputError(
      `${cellKey}: results come from ${prints.size} different machines (${[...prints].join(', ')}); record a baseline from one machine`,
    );
  const hist = merge(reps.map((r) => decode(r.histogram)));
  const s = summarize(hist);
  const byClass = {};
  for (const r of reps) for (const [k, v] of Object.entries(r.errors.byClass)) byClass[k] = (byClass[k] ?? 0) + v;
  // One workload per baseline: a run is compared with it field by field (validity.js).
  const workloads = new Set(reps.map((r) => JSON.stringify(workloadOf(r))));
  if (workloads.size !== 1)
    throw new InputError(
      `${cellKey}: the results measured ${workloads.size} different workloads; record a baseline from runs of one`,
    );
  const [controller, tuning, scenario] = cellKey.split('/');
  const m = reps[0].meta;
  return {
    schemaVersion: BASELINE_SCHEMA_VERSION,
    kind: 'tailgate.baseline',
    profile,
    cell: { controller, tuning, scenario },
    provenance: {
      createdAt: new Date().toISOString(),
      gitSha: m.gitSha ?? null,
      machine: m.machine,
      tailgate: TAILGATE_VERSION,
      k6: m.k6 ?? null,
      controller: m.controller ?? null,
      scenario: m.scenario ?? null,
      workload: workloadOf(reps[0]),
      sources: reps.map((r) => r.source),
    },
    repetitions: reps.map((r) => ({
      percentiles: r.percentiles,
      intervals: r.intervals,
      requests: r.requests,
      errors: r.errors,
      load: r.load,
      meta: { repetition: r.meta?.repetition, startedAt: r.meta?.startedAt, gitSha: r.meta?.gitSha },
    })),
    merged: {
      requests: hist.totalCount,
      errors: { total: Object.values(byClass).reduce((a, b) => a + b, 0), byClass },
      percentiles: s.percentiles,
      histogram: encode(hist),
    },
  };
}
