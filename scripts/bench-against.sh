#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Times this tree's bwgemm against another version's, on the same GPU, one
# after the other: builds OTHER_SOURCE_DIR (a checkout or `git archive` of
# that version) and this tree, then runs each one's bwgemm-bench with the same
# options. Both tables report ratios to cuBLAS measured in their own run, so
# compare the ratios (k/cub, d/cub), not raw TFLOP/s.
#   usage: scripts/bench-against.sh OTHER_SOURCE_DIR [bwgemm-bench options]
# Results go to the results folder (OUT, default bench-results/): other.log, this.log
# and their CSVs.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { sed -n '3,10s/^# \{0,1\}//p' "$0" >&2; exit 2; }
other=$(cd "$1" && pwd)
shift
args=("$@")
((${#args[@]})) || args=(--suite seed,llm,odd)
results=${OUT:-bench-results}
mkdir -p "$results"
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)

build() {  # build SOURCE_DIR BUILD_DIR
  cmake -S "$1" -B "$2" "${gen[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBWGEMM_BUILD_TESTS=OFF >/dev/null
  cmake --build "$2" -j"$(nproc)" --target bwgemm-bench >/dev/null
}
build "$other" build-other
build . build-this

for which in other this; do
  echo "== bwgemm-bench of $which"
  "build-$which/bench/bwgemm-bench" "${args[@]}" --csv "$results/$which.csv" 2>&1 |
    tee "$results/$which.log"
done
