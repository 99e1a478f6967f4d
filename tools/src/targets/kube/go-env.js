// Where Go keeps downloaded modules (upstream charts and the Gateway API CRDs are read
// from there offline): asked once per process, by the driver, never by a step builder.
import { runSync } from '../../exec/run.js';

let cache;
/** $GOMODCACHE, or undefined where go cannot say (the steps then show $(go env GOMODCACHE)). */
export function goModCache() {
  if (cache === undefined) {
    const r = runSync(['go', 'env', 'GOMODCACHE'], { timeoutMs: 30_000 });
    cache = r.code === 0 && r.stdout.trim() ? r.stdout.trim() : null;
  }
  return cache ?? undefined;
}
