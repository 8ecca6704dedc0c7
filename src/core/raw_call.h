// SPDX-License-Identifier: MIT
// The arguments of one GEMM entry-point call, exactly as received.
#pragma once

#include <cstdint>

#include <cublas_api.h>

namespace bwgemm {

enum class EntryPoint : uint8_t {
  GemmEx,
  GemmEx_64,
  GemmStridedBatchedEx,
  GemmStridedBatchedEx_64,
  GemmBatchedEx,
  GemmBatchedEx_64,
};

// Which of the two exported names of an entry point the caller called:
// cuBLAS's (cublasGemmEx, interposed) or bwgemm's own (bwgemmGemmEx). Both take
// the same path; logs name the function as it was called.
enum class CalledAs : uint8_t {
  Cublas,
  Bwgemm,
};

// Narrow (int) entry points store their sizes widened to int64_t; narrowing
// them back when forwarding gives the caller's bits exactly. Fields an entry
// point does not have stay zero / NULL.
struct RawCall {
  EntryPoint entry;
  CalledAs called_as;
  cublasHandle_t handle;
  cublasOperation_t transa, transb;
  int64_t m, n, k;
  const void* alpha;
  const void* A;
  const void* const* Aarray;
  cudaDataType Atype;
  int64_t lda;
  long long strideA;
  const void* B;
  const void* const* Barray;
  cudaDataType Btype;
  int64_t ldb;
  long long strideB;
  const void* beta;
  void* C;
  void* const* Carray;
  cudaDataType Ctype;
  int64_t ldc;
  long long strideC;
  int64_t batch;  // 1 for the non-batched entry points
  cublasComputeType_t compute;
  cublasGemmAlgo_t algo;
};

}  // namespace bwgemm
