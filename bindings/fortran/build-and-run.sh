#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Compiles the installed module source (include/bwgemm/bwgemm.f90) with a
# program and runs it against the installed library.
#   usage: build-and-run.sh contract|gpu STAGE LIBDIR INCLUDEDIR WORK_DIR FC [CUDA_LIB_DIR]
#   contract: tests/test_contract.f90, no GPU needed
#   gpu:      examples/gemm_gpu.f90, links cudart and cuBLAS from CUDA_LIB_DIR;
#             exits 77 without a GPU
set -euo pipefail
mode=$1 stage=$2 libdir=$3 includedir=$4 work=$5 fc=$6
here=$(cd "$(dirname "$0")" && pwd)

lib="$stage/$libdir"
link=("-L$lib" -lbwgemm "-Wl,-rpath,$lib")
case "$mode" in
  contract) prog="$here/tests/test_contract.f90" ;;
  gpu)
    prog="$here/examples/gemm_gpu.f90"
    cudalib=${7:?gpu mode needs CUDA_LIB_DIR}
    link+=("-L$cudalib" -lcudart -lcublas "-Wl,-rpath,$cudalib")
    ;;
  *)
    echo "usage: $0 contract|gpu STAGE LIBDIR INCLUDEDIR WORK_DIR FC [CUDA_LIB_DIR]" >&2
    exit 2
    ;;
esac

rm -rf "$work"
mkdir -p "$work"
"$fc" -std=f2008 -Wall -Wextra -Werror -J "$work" -o "$work/$mode" \
  "$stage/$includedir/bwgemm/bwgemm.f90" "$prog" "${link[@]}"
exec "$work/$mode"
