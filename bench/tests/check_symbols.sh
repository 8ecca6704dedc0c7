#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bwgemm-bench links bwgemm's internal launch objects for its bare launch; if
# it also defined an exported name (bwgemmGemmEx, cublasGemmEx, ...), its calls
# would bind to that copy instead of libbwgemm and the bench would time the
# wrong library. Fails when the executable defines any such name, or when it
# does not take bwgemmGemmEx from a shared library.
#   usage: check_symbols.sh BWGEMM_BENCH
set -euo pipefail
bench=$1
defined=$(nm --defined-only "$bench" | awk '{print $NF}' | grep -E '^(cublas|bwgemm)[A-Z]' || true)
if [ -n "$defined" ]; then
  echo "check_symbols: FAIL: $bench defines names libbwgemm exports:" >&2
  echo "$defined" >&2
  exit 1
fi
# (nm's whole output first: grep -q would stop reading it, and pipefail would
# turn nm's SIGPIPE into a failure.)
undefined=$(nm --undefined-only "$bench")
if ! grep -qE ' U bwgemmGemmEx(@|$)' <<<"$undefined"; then
  echo "check_symbols: FAIL: $bench does not take bwgemmGemmEx from a shared library" >&2
  exit 1
fi
echo "check_symbols: $bench defines no exported name of libbwgemm and takes bwgemmGemmEx from it"
