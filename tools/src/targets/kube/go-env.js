// Where Go keeps downloaded modules (upstream charts and the Gateway API CRDs are read
// from there offline): asked once per process — a found answer is kept, a missing one
// asked again (a test may have changed PATH for a moment) — never by a step builder.
import { runSync } from '../../exec/run.js';

let cache;
/** $GOMODCACHE, or undefined where go cannot say (the steps then show $(go env GOMODCACHE)). */
export function goModCache() {
  if (cache === undefined) {
    const r = runSync(['go', 'env', 'GOMODCACHE'], { timeoutMs: 30_000 });
    if (r.code === 0 && r.stdout.trim()) cache = r.stdout.trim();
  }
  return cache;
}
