// A value that fails is reported once, where it is written. A rule computed from it (the
// samples a blocking quantile gets from rate × duration × repetitions) would say nothing
// new and quote a number made from the bad value: 0.03s from a bare `30`, repetitions
// Infinity from `0s`. Such a rule names its sources (derivedFrom) and is dropped when one failed.

/** schema: the schema's problems; semantic: the cross-reference checks' -> the semantic ones that stand. */
export function onceAtSource(schema, semantic) {
  const key = (path) => path.join('.');
  const schemaAt = new Set(schema.map((p) => key(p.path)));
  const failed = new Set([...schemaAt, ...semantic.filter((p) => !p.derivedFrom).map((p) => key(p.path))]);
  return semantic.filter((p) => !schemaAt.has(key(p.path)) && !(p.derivedFrom ?? []).some((d) => failed.has(key(d))));
}
