#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Build libbwgemm and bwgemm-bench, time every suite against the
# real cuBLAS, and plot the results.
#   usage: scripts/run-main.sh [bwgemm-bench options]   (default: --suite all)
# Results go to the results folder (OUT, default bench-results/): bwgemm-bench.csv,
# bwgemm-bench.log (the tables) and one PNG per suite. BUILD_DIR overrides the
# build folder (default build). Without a GPU it still builds, and says so.
# Exit status: bwgemm-bench's (3 when some output disagreed with cuBLAS).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
results=${OUT:-bench-results}
mkdir -p "$results"

cmake -S . -B "$build"
cmake --build "$build" -j"$(nproc)" --target bwgemm-bench

args=("$@")
((${#args[@]})) || args=(--suite all)
csv="$results/bwgemm-bench.csv"
# A stale CSV or plot must not pass for this run's.
rm -f "$csv" "$results"/bwgemm-bench-*.png
set +e
"$build/bench/bwgemm-bench" "${args[@]}" --csv "$csv" 2>&1 | tee "$results/bwgemm-bench.log"
status=${PIPESTATUS[0]}
set -e

if [ -s "$csv" ]; then
  python3 bench/plot.py "$csv"
else
  echo "run-main: bwgemm-bench measured nothing (no GPU?); the build succeeded, nothing to plot"
fi
echo "run-main: results in $results/ (bwgemm-bench exit status $status)"
exit "$status"
