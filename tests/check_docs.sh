#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Checks that the user-facing documents agree with the code where a number or
# a name can be checked mechanically:
#   - bwgemm-bench's default and minimum --reps (bench/measure.h, bench/main.cpp)
#     are the ones bench/README.md states, and bench/main.cpp's help prints the
#     default from the code rather than a copy;
#   - README.md, docs/, bench/README.md, scripts/ and packaging/ speak of GPUs
#     and commands, not of the machines bwgemm is developed on.
#   usage: check_docs.sh SOURCE_DIR
set -euo pipefail
cd "$1"
status=0
fail() {
  echo "check_docs: FAIL: $*" >&2
  status=1
}

reps=$(sed -nE 's/^ *int reps = ([0-9]+);.*/\1/p' bench/measure.h)
min_reps=$(sed -nE 's/^constexpr int kMinReps = ([0-9]+);/\1/p' bench/main.cpp)
[ -n "$reps" ] && [ -n "$min_reps" ] || fail "cannot find the --reps default or minimum in bench/"
grep -q -- "\`--reps N\` (>= $min_reps, default $reps)" bench/README.md ||
  fail "bench/README.md does not say \`--reps N\` (>= $min_reps, default $reps)"
if grep -nE -- '--reps N .*default [0-9]' bench/main.cpp; then
  fail "bench/main.cpp's help writes the --reps default as a literal; print Options{}.reps"
fi
echo "check_docs: --reps default $reps, minimum $min_reps: bench/README.md agrees"

vocabulary='device kind|nvidia-h100|nvidia-h200|this VM|\$OUT|device tool'
if grep -rniE "$vocabulary" README.md docs bench/README.md scripts packaging; then
  fail "development-machine vocabulary in a user-facing file (above); speak of the GPU and the command"
fi
echo "check_docs: no development-machine vocabulary in README.md, docs, bench/README.md, scripts, packaging"
exit $status
