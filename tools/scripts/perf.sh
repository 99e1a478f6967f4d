#!/usr/bin/env bash
# make perf: the benchmarks of tools/perf/run.js; its kind parts (duet vs interleaved
# pairs; routes under load) run where the offline kind images are built, and say why
# they skipped otherwise. It fails (exit 1, after every figure is written) when a figure
# breaks its limit: `tailgate ingest` over 1.3× zcat's CPU (tools/perf/ingest-bench.js).
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ -z "${PERF_ONLY:-}" ] || [[ ",$PERF_ONLY," == *,kind,* || ",$PERF_ONLY," == *,kind-routes,* || ",$PERF_ONLY," == *,kind-migration,* ]]; then
  # shellcheck source=kind-env.sh
  source tools/scripts/kind-env.sh
  [ -z "$KIND_SKIP" ] || echo "perf: kind part skipped — $KIND_SKIP"
fi
exec node tools/perf/run.js
