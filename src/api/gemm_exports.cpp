// SPDX-License-Identifier: MIT
// The exported GEMM entry points: cuBLAS's names (interposed, version node
// libcublas.so.<major>) and bwgemm's own names (node BWGEMM_<version>), both
// with cuBLAS's exact signatures, both taking the same path.
// The RawCall records which of the two names was called (CalledAs), so that
// the decision log names the function as the caller called it.
//
// cublas_api.h declares the cuBLAS functions without a visibility attribute;
// this library builds with -fvisibility=hidden, so they are declared default
// here for the definitions below to be exportable. The version script decides
// what is actually exported.
#pragma GCC visibility push(default)
#include <cublas_api.h>
#pragma GCC visibility pop

#include "api/gemm_entry.h"
#include "api/raw_call_builders.h"
#include "bwgemm/bwgemm.h"

using bwgemm::CalledAs;
using bwgemm::EntryPoint;

#define BWGEMM_DEFINE_GEMM_EX(name, entry, called_as, int_t)                                       \
  extern "C" cublasStatus_t name(                                                                  \
      cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int_t m, int_t n, \
      int_t k, const void* alpha, const void* A, cudaDataType Atype, int_t lda, const void* B,     \
      cudaDataType Btype, int_t ldb, const void* beta, void* C, cudaDataType Ctype, int_t ldc,     \
      cublasComputeType_t computeType, cublasGemmAlgo_t algo) {                                    \
    return bwgemm::run_gemm(bwgemm::raw_gemm_ex(handle, transa, transb, m, n, k, alpha, A, Atype,  \
                                                lda, B, Btype, ldb, beta, C, Ctype, ldc,           \
                                                computeType, algo, entry, called_as));             \
  }

#define BWGEMM_DEFINE_GEMM_STRIDED_BATCHED_EX(name, entry, called_as, int_t)                       \
  extern "C" cublasStatus_t name(                                                                  \
      cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int_t m, int_t n, \
      int_t k, const void* alpha, const void* A, cudaDataType Atype, int_t lda,                    \
      long long int strideA, const void* B, cudaDataType Btype, int_t ldb, long long int strideB,  \
      const void* beta, void* C, cudaDataType Ctype, int_t ldc, long long int strideC,             \
      int_t batchCount, cublasComputeType_t computeType, cublasGemmAlgo_t algo) {                  \
    return bwgemm::run_gemm(bwgemm::raw_gemm_strided_batched_ex(                                   \
        handle, transa, transb, m, n, k, alpha, A, Atype, lda, strideA, B, Btype, ldb, strideB,    \
        beta, C, Ctype, ldc, strideC, batchCount, computeType, algo, entry, called_as));           \
  }

#define BWGEMM_DEFINE_GEMM_BATCHED_EX(name, entry, called_as, int_t)                               \
  extern "C" cublasStatus_t name(                                                                  \
      cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int_t m, int_t n, \
      int_t k, const void* alpha, const void* const Aarray[], cudaDataType Atype, int_t lda,       \
      const void* const Barray[], cudaDataType Btype, int_t ldb, const void* beta,                 \
      void* const Carray[], cudaDataType Ctype, int_t ldc, int_t batchCount,                       \
      cublasComputeType_t computeType, cublasGemmAlgo_t algo) {                                    \
    return bwgemm::run_gemm(bwgemm::raw_gemm_batched_ex(                                           \
        handle, transa, transb, m, n, k, alpha, Aarray, Atype, lda, Barray, Btype, ldb, beta,      \
        Carray, Ctype, ldc, batchCount, computeType, algo, entry, called_as));                     \
  }

BWGEMM_DEFINE_GEMM_EX(cublasGemmEx, EntryPoint::GemmEx, CalledAs::Cublas, int)
BWGEMM_DEFINE_GEMM_EX(bwgemmGemmEx, EntryPoint::GemmEx, CalledAs::Bwgemm, int)
BWGEMM_DEFINE_GEMM_EX(cublasGemmEx_64, EntryPoint::GemmEx_64, CalledAs::Cublas, int64_t)
BWGEMM_DEFINE_GEMM_EX(bwgemmGemmEx_64, EntryPoint::GemmEx_64, CalledAs::Bwgemm, int64_t)

BWGEMM_DEFINE_GEMM_STRIDED_BATCHED_EX(cublasGemmStridedBatchedEx, EntryPoint::GemmStridedBatchedEx,
                                      CalledAs::Cublas, int)
BWGEMM_DEFINE_GEMM_STRIDED_BATCHED_EX(bwgemmGemmStridedBatchedEx, EntryPoint::GemmStridedBatchedEx,
                                      CalledAs::Bwgemm, int)
BWGEMM_DEFINE_GEMM_STRIDED_BATCHED_EX(cublasGemmStridedBatchedEx_64,
                                      EntryPoint::GemmStridedBatchedEx_64, CalledAs::Cublas,
                                      int64_t)
BWGEMM_DEFINE_GEMM_STRIDED_BATCHED_EX(bwgemmGemmStridedBatchedEx_64,
                                      EntryPoint::GemmStridedBatchedEx_64, CalledAs::Bwgemm,
                                      int64_t)

BWGEMM_DEFINE_GEMM_BATCHED_EX(cublasGemmBatchedEx, EntryPoint::GemmBatchedEx, CalledAs::Cublas, int)
BWGEMM_DEFINE_GEMM_BATCHED_EX(bwgemmGemmBatchedEx, EntryPoint::GemmBatchedEx, CalledAs::Bwgemm, int)
BWGEMM_DEFINE_GEMM_BATCHED_EX(cublasGemmBatchedEx_64, EntryPoint::GemmBatchedEx_64,
                              CalledAs::Cublas, int64_t)
BWGEMM_DEFINE_GEMM_BATCHED_EX(bwgemmGemmBatchedEx_64, EntryPoint::GemmBatchedEx_64,
                              CalledAs::Bwgemm, int64_t)
