// SPDX-License-Identifier: MIT
// RawCall from each entry point's argument list. The cuBLAS interposers and
// the bwgemm* functions share these, so both decode identically.
#pragma once

#include "core/raw_call.h"

namespace bwgemm {

RawCall raw_gemm_ex(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                    int64_t m, int64_t n, int64_t k, const void* alpha, const void* A,
                    cudaDataType Atype, int64_t lda, const void* B, cudaDataType Btype, int64_t ldb,
                    const void* beta, void* C, cudaDataType Ctype, int64_t ldc,
                    cublasComputeType_t compute, cublasGemmAlgo_t algo, EntryPoint entry,
                    CalledAs called_as);

RawCall raw_gemm_strided_batched_ex(cublasHandle_t handle, cublasOperation_t transa,
                                    cublasOperation_t transb, int64_t m, int64_t n, int64_t k,
                                    const void* alpha, const void* A, cudaDataType Atype,
                                    int64_t lda, long long strideA, const void* B,
                                    cudaDataType Btype, int64_t ldb, long long strideB,
                                    const void* beta, void* C, cudaDataType Ctype, int64_t ldc,
                                    long long strideC, int64_t batch, cublasComputeType_t compute,
                                    cublasGemmAlgo_t algo, EntryPoint entry, CalledAs called_as);

RawCall raw_gemm_batched_ex(cublasHandle_t handle, cublasOperation_t transa,
                            cublasOperation_t transb, int64_t m, int64_t n, int64_t k,
                            const void* alpha, const void* const* Aarray, cudaDataType Atype,
                            int64_t lda, const void* const* Barray, cudaDataType Btype, int64_t ldb,
                            const void* beta, void* const* Carray, cudaDataType Ctype, int64_t ldc,
                            int64_t batch, cublasComputeType_t compute, cublasGemmAlgo_t algo,
                            EntryPoint entry, CalledAs called_as);

}  // namespace bwgemm
