// Command-line values laid over a bench.yaml after its schema and before its defaults and
// cross-reference checks — kind's order for `create cluster`: the file decoded strictly,
// the flags fixed up into it, then defaults, then Validate. So what is derived from a value
// (a scenario's maxVus, the k6 budget a profile's maxRate allows, a duet's doubled rate,
// the tail-sample checks) is derived from the value that runs, and a value the file would
// be refused for is refused from the command line alike.
//
// They land on the matrix the run names, as its `duration` and `alternate` (fields
// bench.yaml has) and `rate` and `duet` (fields only flags set), never on a scenario:
// other matrices share the scenario, and `--rate 100` for `local` must not make
// `nightly`'s p99.99 unreachable.
// Which cells run (--controllers, --tunings, --scenarios, --repetitions, --pair) is the
// plan's selection and stays there: a job that runs one repetition of three is still
// gated on all three.

/** The overrides config takes, from planMatrix's (cli/options.js planOverrides). */
export function valueOverrides(o = {}) {
  const out = {};
  if (o.rate !== undefined) out.rate = o.rate;
  if (o.duration !== undefined) out.duration = o.duration;
  // One k6 alternates between both sides of a duet, as with compare: concurrent.
  if (o.abHead || o.duetBase) out.duet = true;
  // Sides loaded one at a time, a k6 run each at the rate per side: a fixed number of pairs,
  // so the matrix's sequential pairs (maxRepetitions) are off for this run.
  if (o.alternate) Object.assign(out, { alternate: true, maxRepetitions: undefined });
  return out;
}

/**
 * The decoded, schema-checked file with a matrix's overrides: {raw, flags}, flags being
 * [{path, flag}] — where each value now comes from, for the problems that name it.
 */
export function applyOverrides(raw, matrix, overrides) {
  const values = valueOverrides(overrides);
  const matrices = raw?.matrices;
  const m = matrix && matrices && Object.hasOwn(matrices, matrix) ? matrices[matrix] : null;
  if (!Object.keys(values).length || !m || typeof m !== 'object') return { raw, flags: [] };
  const flags = [];
  const at = (key) => ['matrices', matrix, key];
  if (values.rate !== undefined) flags.push({ path: at('rate'), flag: `--rate ${values.rate}` });
  if (values.duration !== undefined) flags.push({ path: at('duration'), flag: `--duration ${values.duration}` });
  if (values.duet)
    flags.push({ path: at('duet'), flag: overrides.abHead ? `--ab-head ${overrides.abHead}` : '--duet-base' });
  if (values.alternate) flags.push({ path: at('alternate'), flag: '--alternate' });
  return { raw: { ...raw, matrices: { ...matrices, [matrix]: { ...m, ...values } } }, flags };
}
