#!/usr/bin/env bash
# A real PR on offline kind, as gate.yml runs it (duet-cell.sh, then gate.sh): the PR
# lowers the steady rate and raises its own p99 threshold to 1000%.
set -uo pipefail
TG=$(cd "$(dirname "$0")/../.." && pwd)
cd "$TG" && source tools/scripts/kind-env.sh >/dev/null 2>&1; cd - >/dev/null
repo=$(mktemp -d /tmp/tg-pr-demo.XXXXXX); cd "$repo"
git init -q -b main; git config user.email ci@example.com; git config user.name ci
node $TG/tools/bin/tailgate.js init --controller haproxy-ingress --dir . >/dev/null
python3 - <<'PY'
import re
s=open('bench.yaml').read()
s=s.replace('steady: { script: steady, rate: 500, duration: 20s, warmup: 2s, replicas: 3, vus: 500 }','steady: { script: steady, rate: 300, duration: 20s, warmup: 2s, replicas: 3, vus: 500 }')
s=s.replace('    duration: 45s\n','    duration: 15s\n')
open('bench.yaml','w').write(s)
PY
git add -A; git commit -qm base; base=$(git rev-parse HEAD)
sed -i 's/rate: 300, duration: 20s/rate: 200, duration: 20s/' bench.yaml
cat >> bench.yaml <<'YML'
gate:
  latency:
    p99: { threshold: 1000% }
YML
git commit -qam "PR: lower rate, loosen p99"
git worktree add -q ../$(basename $repo)-base $base
export BASE_DIR=$repo/../$(basename $repo)-base MATRIX=pr CONTROLLER=haproxy-ingress TUNING=default SCENARIO=steady REPETITIONS=2 OUT=results
time $TG/tools/ci/duet-cell.sh; echo "duet-cell exit $?"
MODE=concurrent RESULTS=results BASE_REF=$base OUT=gate-out MATRIX=pr $TG/tools/ci/gate.sh; echo "gate exit $?"
echo "--- comment (first 25 lines)"; head -25 gate-out/comment/comment.md
echo "repo: $repo"
