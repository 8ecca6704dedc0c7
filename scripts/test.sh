#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The test command: installs what is missing, builds, and runs every CPU test
# suite, the packaging checks that need no package build (versions, symbols,
# metadata) and the Rust bindings' checks. GPU suites are built too and, without
# a GPU, are reported as skipped with each one's reason. Building the .deb and
# .rpm packages is a separate command: packaging/ci-check.sh BUILD_DIR.
#   usage: scripts/test.sh [--no-apt] [--no-python] [BUILD_DIR]   (default build)
#     --no-apt, --no-python: passed to scripts/install-deps.sh; with
#     --no-python, tests whose tools are missing are left out (CMake says which)
set -euo pipefail
cd "$(dirname "$0")/.."
deps=() require=ON build=build
for arg in "$@"; do
  case "$arg" in
    --no-apt) deps+=("$arg") ;;
    --no-python) deps+=("$arg") require=OFF ;;
    -*)
      echo "usage: scripts/test.sh [--no-apt] [--no-python] [BUILD_DIR]" >&2
      exit 2
      ;;
    *) build=$arg ;;
  esac
done
start=$SECONDS
phase() { echo "== test.sh: $1 ($((SECONDS - start)) s so far)"; }

phase "dependencies"
scripts/install-deps.sh "${deps[@]}"
phase "configure and build in $build"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBWGEMM_REQUIRE_TEST_TOOLS=$require
cmake --build "$build" -j"$(nproc)"

# -V so that every suite's own summary (CMocka's [  PASSED  ] lines) is in the log.
phase "CPU test suites (ctest -L nogpu; full log in $build/ctest-nogpu.log)"
ctest --test-dir "$build" -L nogpu -V --timeout 900 -j"$(nproc)" | tee "$build/ctest-nogpu.log" |
  grep -E '^[0-9]+: \[  (PASSED|FAILED|SKIPPED) |^[0-9]+: \[==========\]|Test +#|tests passed|tests failed|^[0-9]+: (SKIP|FAIL|ok|not ok)' || true
grep -q "100% tests passed" "$build/ctest-nogpu.log" || { echo "test.sh: CPU suite failed"; exit 1; }

# GPU suites: without a GPU each exits 77 and CTest reports it as skipped;
# print each skipped test's own reason (its SKIP: line) after the summary.
phase "GPU test suites (ctest -L gpu; full log in $build/ctest-gpu.log)"
gpu_rc=0
ctest --test-dir "$build" -L '^gpu$' -V --timeout 900 >"$build/ctest-gpu.log" 2>&1 || gpu_rc=$?
grep -E 'Test +#|tests passed|tests failed|Not Run|Skipped' "$build/ctest-gpu.log" || true
awk '
  match($0, /Test +#[0-9]+: [^ ]+ /) {
    split(substr($0, RSTART, RLENGTH), f, /[#: ]+/); name[f[2]] = f[3]
    if ($0 ~ /Skipped/) skipped[f[2]] = 1
  }
  /^[0-9]+: SKIP/ { n = $1; sub(/:$/, "", n); sub(/^[0-9]+: /, ""); why[n] = $0 }
  END {
    for (n in skipped) printf "test.sh: %s skipped: %s\n", name[n], (n in why) ? why[n] : "(no reason printed)"
  }' "$build/ctest-gpu.log" | sort
if ((gpu_rc != 0)); then
  grep -B40 -E '\*\*\*Failed|\*\*\*Timeout|\*\*\*Exception' "$build/ctest-gpu.log" | tail -80 || true
  echo "test.sh: GPU suite failed"
  exit 1
fi

# Packaging (the checks that need no package build) and language bindings.
phase "packaging/ci-check.sh --quick"
packaging/ci-check.sh --quick "$build"
phase "bindings/ci-check.sh"
bindings/ci-check.sh "$build"
phase "done"
echo "test.sh: all CPU checks passed in $((SECONDS - start)) s (package builds: packaging/ci-check.sh $build)"
