#!/bin/sh
# SPDX-License-Identifier: MIT
# Fails if any of the given binaries would load a CUDA library (cudart,
# cuBLAS, the driver) when run: the CPU unit tests must run where none exists.
#   usage: check_no_cuda_dependency.sh BINARY...
status=0
for binary in "$@"; do
  deps=$(ldd "$binary") || { echo "FAIL: ldd $binary"; status=1; continue; }
  cuda=$(printf '%s\n' "$deps" | grep -E 'lib(cuda|cudart|cublas|cublasLt)\.so')
  if [ -n "$cuda" ]; then
    echo "FAIL: $binary depends on a CUDA library:"
    printf '%s\n' "$cuda"
    status=1
  else
    echo "ok: $binary"
  fi
done
exit $status
