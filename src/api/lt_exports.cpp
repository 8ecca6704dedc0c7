// SPDX-License-Identifier: MIT
// cublasLtMatmul, interposed under cuBLASLt's node libcublasLt.so.<major>
// (see gemm_exports.cpp for the visibility dance). libcublas calls it through
// its PLT too: calls that arrive while bwgemm is inside the real cuBLAS or
// cuBLASLt on this thread are cuBLAS's own, and go straight to cuBLASLt,
// untouched and unrecorded.
#pragma GCC visibility push(default)
#include <cublasLt.h>
#pragma GCC visibility pop

#include "api/gemm_entry.h"
#include "forward/real_call_scope.h"
#include "forward/real_cublaslt.h"

extern "C" cublasStatus_t cublasLtMatmul(cublasLtHandle_t lightHandle,
                                         cublasLtMatmulDesc_t computeDesc, const void* alpha,
                                         const void* A, cublasLtMatrixLayout_t Adesc, const void* B,
                                         cublasLtMatrixLayout_t Bdesc, const void* beta,
                                         const void* C, cublasLtMatrixLayout_t Cdesc, void* D,
                                         cublasLtMatrixLayout_t Ddesc,
                                         const cublasLtMatmulAlgo_t* algo, void* workspace,
                                         size_t workspaceSizeInBytes, cudaStream_t stream) {
  const bwgemm::LtMatmulArgs args{
      lightHandle, computeDesc,          alpha, A, Adesc, B, Bdesc, beta, C, Cdesc, D, Ddesc, algo,
      workspace,   workspaceSizeInBytes, stream};
  if (bwgemm::inside_real_call()) return bwgemm::forward_lt_matmul(args);
  return bwgemm::run_lt_matmul(args);
}
