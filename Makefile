# Every workflow step calls one of these targets; they work the same on a laptop.
SHELL := /bin/bash
TAILGATE := node tools/bin/tailgate.js
export PATH := $(CURDIR)/.tools/bin:$(PATH)

.PHONY: setup setup-bench test test-unit test-kind test-workflows bench perf doctor clean

# Set-up in layers: `bench` needs OS packages, k6 and npm dependencies only; the tests
# add linters, helm, kubeconform and schemas (tools/scripts/setup.sh).
setup:
	@tools/scripts/setup.sh test

setup-bench:
	@tools/scripts/setup.sh bench

# Tests write their scratch folders under one TMPDIR of their own, removed afterwards
# (pass or fail): a self-hosted runner would otherwise collect them forever.
# Unit tests are computation only: two files at a time on two cores. The integration
# tests measure real proxies and k6: one at a time, or each would perturb the other.
test: setup
	tools/scripts/lint.sh
	tools/scripts/with-tmpdir.sh node --test --test-concurrency=2 --test-reporter=spec tools/test/unit/
	tools/scripts/with-tmpdir.sh node --test --test-concurrency=1 --test-reporter=spec tools/test/integration/

# Unit tests only (no k6, no proxies): seconds.
test-unit: setup
	tools/scripts/with-tmpdir.sh node --test --test-concurrency=2 --test-reporter=spec tools/test/unit/

# End to end on a real kind cluster (offline images from ../shared/offline-kind);
# skips with one line when they are not built on this machine.
test-kind: setup
	tools/scripts/with-tmpdir.sh tools/scripts/test-kind.sh

# The workflow files themselves, executed by act on real event payloads (jobs on this
# host; GitHub's actions and REST API stood in for: tools/test/workflows/).
# Its PR cases bench on kind: they wait for a make test-kind running here (one cluster
# at a time, or each perturbs the other's measurements).
test-workflows: setup
	flock /tmp/tailgate-test-kind.lock tools/scripts/with-tmpdir.sh node --test --test-concurrency=1 --test-reporter=spec tools/test/workflows/

# The main job on the embedded default: the `local` matrix of bench.yaml. It ends in a
# verdict on any machine: against the committed baselines where they were measured on this
# one, else against this machine's own in results/baselines/ (ignored by git), which the
# first run records (docs/baselines.md).
bench: setup-bench
	$(TAILGATE) run --matrix local --own-baselines results/baselines

perf: setup-bench
	tools/scripts/perf.sh

doctor:
	@$(TAILGATE) doctor

clean:
	rm -rf .tools node_modules
