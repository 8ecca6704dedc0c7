#!/usr/bin/env bash
# The test command: installs what is missing, builds, and runs every CPU test
# suite. GPU tests are built too and skip (saying so) without a GPU.
#   usage: scripts/test.sh [build-dir]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}

scripts/install-deps.sh
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBWGEMM_REQUIRE_TEST_TOOLS=ON
cmake --build "$build" -j"$(nproc)"

# -V so that every suite's own summary (CMocka's [  PASSED  ] lines) is in the log.
ctest --test-dir "$build" -L nogpu -V --timeout 900 | tee "$build/ctest-nogpu.log" |
  grep -E '^[0-9]+: \[  (PASSED|FAILED|SKIPPED) |^[0-9]+: \[==========\]|Test +#|tests passed|tests failed|^[0-9]+: (SKIP|FAIL|ok|not ok)' || true
grep -q "100% tests passed" "$build/ctest-nogpu.log" || { echo "test.sh: CPU suite failed"; exit 1; }

# GPU suites: they report "skipped" here unless this machine has a GPU.
ctest --test-dir "$build" -L '^gpu$' --output-on-failure --timeout 900

# Packaging and language bindings, each with its own check script.
for check in packaging/ci-check.sh bindings/ci-check.sh; do
  if [ -x "$check" ]; then
    echo "== $check"
    "$check" "$build"
  fi
done
echo "test.sh: all CPU checks passed"
