#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The whole check on a machine with a GPU, one command, comparable between
# runs: build, GPU test suites, compute-sanitizer subset, benchmark suites.
#   usage: scripts/gpu-check.sh [build|tests|sanitizer|bench|all]...   (default: all)
# Logs, CSV and plots go to the results folder (OUT, default gpu-results/).
# Every step runs under a timeout, so a hung kernel shows up as a failure
# instead of blocking the run.
set -uo pipefail
cd "$(dirname "$0")/.."
results=${OUT:-gpu-results}
mkdir -p "$results"
build=build-gpu
steps=("$@")
[ ${#steps[@]} -eq 0 ] && steps=(all)
want() { for s in "${steps[@]}"; do [ "$s" = "$1" ] || [ "$s" = all ] && return 0; done; return 1; }
status=0
# shellcheck source=step.sh
. scripts/step.sh

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw \
  --format=csv | tee "$results/gpu.txt"

if want build || want tests || want sanitizer || want bench; then
  gen=()
  command -v ninja >/dev/null && gen=(-G Ninja)
  # Tests and bench named on: a build folder configured without them before
  # keeps its cache, and its test stage would find nothing to run.
  step configure 300 cmake -S . -B "$build" "${gen[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DBWGEMM_BUILD_TESTS=ON -DBWGEMM_BUILD_BENCH=ON || exit 1
  step build 900 cmake --build "$build" -j"$(nproc)" || exit 1
fi

if want tests; then
  # -V: every suite's own summary lines go into the log.
  step gpu-tests 1500 ctest --test-dir "$build" -L '^gpu$' -V --timeout 600 --no-tests=error
fi

if want sanitizer; then
  # memcheck, racecheck and synccheck on the small cases, every sm90
  # configuration forced in turn (tests/gpu/kernel/CMakeLists.txt).
  step sanitizer 900 ctest --test-dir "$build" -L '^sanitizer$' -V --timeout 300 --no-tests=error
fi

if want bench; then
  # Every suite, in three runs so that one failing run does not cost the
  # others' numbers; each takes a few minutes at most on an H100 (the
  # estimates are in bench/README.md) and is stopped at 8.
  for run in large:seed,llm,k-sweep odd:odd,gpt2 small:small,decode,models,host; do
    name=bench-${run%%:*}
    step "$name" 480 "$build/bench/bwgemm-bench" --suite "${run#*:}" --csv "$results/$name.csv"
    [ -s "$results/$name.csv" ] && step "plot-${run%%:*}" 120 python3 bench/plot.py "$results/$name.csv"
  done
fi

echo "gpu-check: $([ $status -eq 0 ] && echo PASSED || echo FAILED) (logs in $results)"
exit $status
