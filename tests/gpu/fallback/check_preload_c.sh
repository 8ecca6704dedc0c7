#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs preload_c (a program that knows only cuBLAS) with libbwgemm preloaded
# and BWGEMM_LOG=2, then checks that bwgemm logged its cublasGemmEx call and
# that the program found its result right. Passes exit code 77 (no GPU) on.
#   usage: check_preload_c.sh LIBBWGEMM PRELOAD_C
library=$1
program=$2
output=$(env -u BWGEMM_LOG_FILE -u BWGEMM_DISABLE LD_PRELOAD="$library" BWGEMM_LOG=2 \
  "$program" 2>&1)
status=$?
printf '%s\n' "$output"
[ "$status" -eq 77 ] && exit 77
if [ "$status" -ne 0 ]; then
  echo "FAIL: preload_c exited with $status"
  exit 1
fi
if ! printf '%s\n' "$output" | grep -q '^bwgemm: cublasGemmEx '; then
  echo "FAIL: no bwgemm log line for cublasGemmEx: the call was not intercepted"
  exit 1
fi
if ! printf '%s\n' "$output" | grep -q '^preload_c: result ok$'; then
  echo "FAIL: preload_c did not report a correct result"
  exit 1
fi
echo "PASS: cublasGemmEx intercepted by bwgemm, result exact"
