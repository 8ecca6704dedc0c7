// SPDX-License-Identifier: MIT
// A decoded, validated GEMM: what the planner and the kernels see. Nothing
// here refers to cuBLAS's calling convention any more.
#pragma once

#include <cstddef>
#include <cstdint>

#include <driver_types.h>

namespace bwgemm {

enum class DType : uint8_t { F16, BF16, F32 };

inline size_t dtype_size(DType t) { return t == DType::F32 ? 4 : 2; }

// alpha or beta: a value read on the host (host pointer mode) or a device
// pointer the kernel reads when it runs (device pointer mode).
struct Scalar {
  bool on_device;
  float value;          // valid when !on_device
  const float* device;  // valid when on_device
};

// Column-major C[m x n] = alpha * op(A)[m x k] * op(B)[k x n] + beta * C, for
// each of `batch` matrices at A + i*stride_a (elements), and so on.
struct GemmProblem {
  DType ab_type;          // A and B share a type
  DType c_type;           // C (and D, which is C) type
  bool trans_a, trans_b;  // op is transpose (CUBLAS_OP_T or _C on real types)
  int64_t m, n, k;
  const void* a;
  const void* b;
  void* c;
  int64_t lda, ldb, ldc;
  int64_t stride_a, stride_b, stride_c;  // elements; ignored when batch == 1
  int64_t batch;
  Scalar alpha, beta;
  cudaStream_t stream;
  int sm_count_target;  // the handle's cublasSetSmCountTarget; 0: every SM
};

}  // namespace bwgemm
