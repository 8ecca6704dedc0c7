// SPDX-License-Identifier: MIT
// A decoded, validated GEMM: what the planner and the kernels see. Nothing
// here refers to cuBLAS's calling convention any more.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include <driver_types.h>

namespace bwgemm {

enum class DType : uint8_t { F16, BF16, F32 };

inline size_t dtype_size(DType t) { return t == DType::F32 ? 4 : 2; }

// The output stage after alpha * op(A) op(B) + beta * C (cuBLASLt epilogues):
// a bias vector, one value per row of D (per m), then an activation.
enum class Activation : uint8_t { None, Relu, Gelu };

struct Epilogue {
  Activation activation;
  const void* bias;     // NULL: no bias
  DType bias_type;      // D's type or F32
  int64_t bias_stride;  // elements between the bias vectors of a batch
};

// alpha or beta: a value read on the host (host pointer mode) or a device
// pointer the kernel reads when it runs (device pointer mode).
struct Scalar {
  bool on_device;
  float value;          // valid when !on_device
  const float* device;  // valid when on_device
};

// Column-major D[m x n] = epilogue(alpha * op(A)[m x k] * op(B)[k x n] + beta * C),
// for each of `batch` matrices at A + i*stride_a (elements), and so on. D is C
// (in place) for the cuBLAS entry points; cublasLtMatmul may name another D,
// and a NULL C when beta == 0.
struct GemmProblem {
  DType ab_type;          // A and B share a type
  DType c_type;           // C and D type
  bool trans_a, trans_b;  // op is transpose (CUBLAS_OP_T or _C on real types)
  int64_t m, n, k;
  const void* a;
  const void* b;
  void* c;
  void* d;
  int64_t lda, ldb, ldc, ldd;
  int64_t stride_a, stride_b, stride_c, stride_d;  // elements; ignored when batch == 1
  int64_t batch;
  Scalar alpha, beta;
  Epilogue epilogue;
  // Device memory the launch may use for this call, until the call's work on
  // `stream` is done: the caller's (cublasLtMatmul's workspace), or what
  // dispatch's operand copies left of theirs (dispatch/launch.cpp); or NULL.
  void* workspace;
  size_t workspace_bytes;
  cudaStream_t stream;
  int sm_count_target;  // the handle's cublasSetSmCountTarget; 0: every SM
  // A is the library's packed copy (dispatch/launch.cpp): each stored column
  // is zero and readable past its last row, up to lda.
  bool a_padded;
};

// Field by field (memo keys: what a call planned or built before is kept);
// a host scalar by its bits (-0.0 is not 0.0 to a kernel's result).
inline bool operator==(const Scalar& x, const Scalar& y) {
  if (x.on_device != y.on_device) return false;
  if (x.on_device) return x.device == y.device;
  uint32_t xb, yb;
  std::memcpy(&xb, &x.value, sizeof xb);
  std::memcpy(&yb, &y.value, sizeof yb);
  return xb == yb;
}

inline bool operator==(const Epilogue& x, const Epilogue& y) {
  return x.activation == y.activation && x.bias == y.bias && x.bias_type == y.bias_type &&
         x.bias_stride == y.bias_stride;
}

inline bool operator==(const GemmProblem& x, const GemmProblem& y) {
  return x.ab_type == y.ab_type && x.c_type == y.c_type && x.trans_a == y.trans_a &&
         x.trans_b == y.trans_b && x.m == y.m && x.n == y.n && x.k == y.k && x.a == y.a &&
         x.b == y.b && x.c == y.c && x.d == y.d && x.lda == y.lda && x.ldb == y.ldb &&
         x.ldc == y.ldc && x.ldd == y.ldd && x.stride_a == y.stride_a && x.stride_b == y.stride_b &&
         x.stride_c == y.stride_c && x.stride_d == y.stride_d && x.batch == y.batch &&
         x.alpha == y.alpha && x.beta == y.beta && x.epilogue == y.epilogue &&
         x.workspace == y.workspace && x.workspace_bytes == y.workspace_bytes &&
         x.stream == y.stream && x.sm_count_target == y.sm_count_target && x.a_padded == y.a_padded;
}

}  // namespace bwgemm
