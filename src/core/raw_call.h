// SPDX-License-Identifier: MIT
// The arguments of one GEMM entry-point call, exactly as received.
#pragma once

#include <cstdint>

#include <cublasLt.h>
#include <cublas_api.h>

#include "core/problem.h"

namespace bwgemm {

enum class EntryPoint : uint8_t {
  GemmEx,
  GemmEx_64,
  GemmStridedBatchedEx,
  GemmStridedBatchedEx_64,
  GemmBatchedEx,
  GemmBatchedEx_64,
  LtMatmul,  // cublasLtMatmul: sizes and types decoded from its descriptors
};

// Which of the two exported names of an entry point the caller called:
// cuBLAS's (cublasGemmEx, interposed) or bwgemm's own (bwgemmGemmEx). Both take
// the same path; logs name the function as it was called.
enum class CalledAs : uint8_t {
  Cublas,
  Bwgemm,
};

// cublasLtMatmul's arguments exactly as received: what it is forwarded with.
struct LtMatmulArgs {
  cublasLtHandle_t handle;
  cublasLtMatmulDesc_t desc;
  const void* alpha;
  const void* A;
  cublasLtMatrixLayout_t Adesc;
  const void* B;
  cublasLtMatrixLayout_t Bdesc;
  const void* beta;
  const void* C;
  cublasLtMatrixLayout_t Cdesc;
  void* D;
  cublasLtMatrixLayout_t Ddesc;
  const cublasLtMatmulAlgo_t* algo;
  void* workspace;
  size_t workspace_bytes;
  cudaStream_t stream;
};

// The kernel step's part of a kept descriptor reading (api/lt_decode.cpp).
struct LtKernelAttributes;

// What a cublasLtMatmul call's descriptors say beyond the cuBLAS fields of
// RawCall (which its decoder fills: sizes, types, ops, lds, strides, batch,
// compute). D is a separate matrix of C's type; C may be NULL when beta == 0.
// The bias vector and the SM target are read only for a call a kernel will
// run (decode_lt_kernel_attributes).
struct LtDecoded {
  void* D;
  int64_t ldd;
  long long strideD;
  cublasPointerMode_t pointer_mode;
  bool bias_epilogue;  // the epilogue adds a bias (known before the bias is read)
  Epilogue epilogue;
  int sm_count_target;
  // Where the calling thread keeps the kernel step's reading of these
  // descriptors, valid until its next decode; NULL: not kept.
  LtKernelAttributes* kept_attributes;
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
  // LtMatmul only (NULL otherwise): the arguments as received, and what the
  // descriptors said (NULL until decoded, or when they could not be).
  const LtMatmulArgs* lt;
  const LtDecoded* lt_decoded;
};

}  // namespace bwgemm
