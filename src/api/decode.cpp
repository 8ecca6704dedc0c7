// SPDX-License-Identifier: MIT
#include "api/decode.h"

#include <algorithm>
#include <cstdint>

namespace bwgemm {
namespace {

bool is_valid_op(cublasOperation_t op) {
  // CUBLAS_OP_CONJG (3) is rejected by cublasGemmEx; C on real types means T.
  return op == CUBLAS_OP_N || op == CUBLAS_OP_T || op == CUBLAS_OP_C;
}

// cuBLAS 13.1 accepts -1, 0..23, 99..115 and CUBLAS_GEMM_AUTOTUNE (999).
bool is_valid_algo(cublasGemmAlgo_t algo) {
  const int a = static_cast<int>(algo);
  return a == -1 || (a >= 0 && a <= 23) || (a >= 99 && a <= 115) || a == 999;
}

bool is_batched_pointer_array(EntryPoint e) {
  return e == EntryPoint::GemmBatchedEx || e == EntryPoint::GemmBatchedEx_64;
}

bool arguments_valid(const RawCall& c) {
  if (!is_valid_op(c.transa) || !is_valid_op(c.transb)) return false;
  if (c.m < 0 || c.n < 0 || c.k < 0) return false;
  // The leading-dimension rules hold even for empty matrices (m = 0, lda = 0
  // is INVALID_VALUE in cuBLAS 13.1).
  const int64_t rows_a = c.transa == CUBLAS_OP_N ? c.m : c.k;
  const int64_t rows_b = c.transb == CUBLAS_OP_N ? c.k : c.n;
  if (c.lda < std::max<int64_t>(1, rows_a)) return false;
  if (c.ldb < std::max<int64_t>(1, rows_b)) return false;
  if (c.ldc < std::max<int64_t>(1, c.m)) return false;
  if (!is_valid_algo(c.algo)) return false;
  if (c.batch < 0) return false;
  return true;
}

// cuBLAS 13.1 rejects NULL operands on a non-empty problem (INVALID_VALUE),
// even where alpha == 0 or k == 0 means A and B would not be read.
//
// cublasLtMatmul allows a NULL C when beta == 0 (its D is checked instead);
// whether beta is 0 is known only once the scalars are read (make_problem's
// caller checks).
bool has_null_pointer(const RawCall& c) {
  if (c.alpha == nullptr || c.beta == nullptr) return true;
  if (c.entry == EntryPoint::LtMatmul)
    return c.A == nullptr || c.B == nullptr || c.lt->D == nullptr;
  if (is_batched_pointer_array(c.entry))
    return c.Aarray == nullptr || c.Barray == nullptr || c.Carray == nullptr;
  return c.A == nullptr || c.B == nullptr || c.C == nullptr;
}

bool to_dtype(cudaDataType t, DType* out) {
  switch (t) {
    case CUDA_R_16F: *out = DType::F16; return true;
    case CUDA_R_16BF: *out = DType::BF16; return true;
    case CUDA_R_32F: *out = DType::F32; return true;
    default: return false;
  }
}

// fp16 or bf16 A and B of one type; C of that type or fp32; fp32 accumulation
// requested explicitly (32F, or the FAST variant naming the input type, which
// for 16-bit inputs means exactly fp32 accumulation of those inputs).
bool types_supported(const RawCall& c) {
  DType a, b, out;
  if (!to_dtype(c.Atype, &a) || !to_dtype(c.Btype, &b) || !to_dtype(c.Ctype, &out)) return false;
  if (a != b || a == DType::F32) return false;
  if (out != a && out != DType::F32) return false;
  switch (c.compute) {
    case CUBLAS_COMPUTE_32F: return true;
    case CUBLAS_COMPUTE_32F_FAST_16F: return a == DType::F16;
    case CUBLAS_COMPUTE_32F_FAST_16BF: return a == DType::BF16;
    default: return false;
  }
}

// Element-aligned: the kernels load and store whole elements; whether TMA
// can address the rows (16-byte multiples) is the launcher's business.
bool element_aligned(const void* p, DType t) {
  return reinterpret_cast<uintptr_t>(p) % dtype_size(t) == 0;
}

// TMA global strides must stay below 2^40 bytes; tile coordinates are int32.
constexpr int64_t kMaxStrideBytes = (int64_t{1} << 40) - 16;
constexpr int64_t kMaxExtent = INT32_MAX;

bool stride_in_range(int64_t elements, DType t) {
  return elements >= 0 && elements <= kMaxStrideBytes / static_cast<int64_t>(dtype_size(t));
}

// The bytes from a matrix of the output type's first element past its last
// (within range per check_layout's earlier checks).
uint64_t footprint(const GemmProblem& p, int64_t ld, int64_t stride) {
  const uint64_t last_batch = p.batch > 1 ? uint64_t(p.batch - 1) * uint64_t(stride) : 0;
  return (last_batch + uint64_t(p.n - 1) * uint64_t(ld) + uint64_t(p.m)) * dtype_size(p.c_type);
}

bool overlaps(const void* a, uint64_t a_bytes, const void* b, uint64_t b_bytes) {
  const auto x = reinterpret_cast<uintptr_t>(a), y = reinterpret_cast<uintptr_t>(b);
  return x < y + b_bytes && y < x + a_bytes;
}

}  // namespace

bwgemmReason_t classify_call(const RawCall& c) {
  // cuBLAS checks the handle before anything else.
  if (c.entry == EntryPoint::LtMatmul ? c.lt->handle == nullptr : c.handle == nullptr)
    return BWGEMM_REASON_NULL_HANDLE;
  if (!arguments_valid(c)) return BWGEMM_REASON_INVALID_ARGUMENT;
  if (!types_supported(c)) return BWGEMM_REASON_UNSUPPORTED_TYPES;
  if (c.m == 0 || c.n == 0 || c.batch == 0) return BWGEMM_REASON_QUICK_RETURN;
  if (has_null_pointer(c)) return BWGEMM_REASON_INVALID_ARGUMENT;
  if (is_batched_pointer_array(c.entry)) return BWGEMM_REASON_UNSUPPORTED_BATCH;
  return BWGEMM_REASON_KERNEL_SELECTED;
}

GemmProblem make_problem(const RawCall& c, cublasPointerMode_t mode, cudaStream_t stream) {
  GemmProblem p{};
  to_dtype(c.Atype, &p.ab_type);
  to_dtype(c.Ctype, &p.c_type);
  p.trans_a = c.transa != CUBLAS_OP_N;
  p.trans_b = c.transb != CUBLAS_OP_N;
  p.m = c.m;
  p.n = c.n;
  p.k = c.k;
  p.a = c.A;
  p.b = c.B;
  p.c = c.C;
  p.d = c.C;
  p.lda = c.lda;
  p.ldb = c.ldb;
  p.ldc = c.ldc;
  p.ldd = c.ldc;
  p.batch = c.batch;
  if (c.batch > 1) {
    p.stride_a = c.strideA;
    p.stride_b = c.strideB;
    p.stride_c = c.strideC;
    p.stride_d = c.strideC;
  }
  if (const LtDecoded* lt = c.lt_decoded) {
    p.d = lt->D;
    p.ldd = lt->ldd;
    p.stride_d = c.batch > 1 ? lt->strideD : 0;
    p.epilogue = lt->epilogue;
    p.sm_count_target = lt->sm_count_target;
    p.workspace = c.lt->workspace;
    p.workspace_bytes = c.lt->workspace_bytes;
  }
  // The 32F compute types bwgemm takes all scale with float alpha and beta.
  const bool on_device = mode == CUBLAS_POINTER_MODE_DEVICE;
  p.alpha.on_device = on_device;
  p.beta.on_device = on_device;
  if (on_device) {
    p.alpha.device = static_cast<const float*>(c.alpha);
    p.beta.device = static_cast<const float*>(c.beta);
  } else {
    p.alpha.value = *static_cast<const float*>(c.alpha);
    p.beta.value = *static_cast<const float*>(c.beta);
  }
  p.stream = stream;
  return p;
}

bwgemmReason_t check_layout(const GemmProblem& p) {
  if (p.m > kMaxExtent || p.n > kMaxExtent || p.k > kMaxExtent || p.batch > kMaxExtent)
    return BWGEMM_REASON_TOO_LARGE;
  if (!stride_in_range(p.lda, p.ab_type) || !stride_in_range(p.ldb, p.ab_type) ||
      !stride_in_range(p.ldc, p.c_type) || !stride_in_range(p.ldd, p.c_type))
    return BWGEMM_REASON_TOO_LARGE;
  if (!element_aligned(p.a, p.ab_type) || !element_aligned(p.b, p.ab_type) ||
      !element_aligned(p.c, p.c_type) || !element_aligned(p.d, p.c_type))
    return BWGEMM_REASON_UNSUPPORTED_LAYOUT;
  if (p.epilogue.bias != nullptr && !element_aligned(p.epilogue.bias, p.epilogue.bias_type))
    return BWGEMM_REASON_UNSUPPORTED_LAYOUT;
  if (p.batch > 1) {
    // Negative strides and overlapping outputs stay with cuBLAS.
    if (!stride_in_range(p.stride_a, p.ab_type) || !stride_in_range(p.stride_b, p.ab_type) ||
        !stride_in_range(p.stride_c, p.c_type) || !stride_in_range(p.stride_d, p.c_type))
      return BWGEMM_REASON_UNSUPPORTED_BATCH;
    // stride >= ld * n, written so that it cannot overflow.
    if (p.stride_c / p.n < p.ldc || p.stride_d / p.n < p.ldd)
      return BWGEMM_REASON_UNSUPPORTED_BATCH;
  }
  // An out-of-place D that shares memory with C: whether C is read before
  // D's write is cuBLASLt's business.
  if (p.c != nullptr && p.c != p.d &&
      overlaps(p.c, footprint(p, p.ldc, p.stride_c), p.d, footprint(p, p.ldd, p.stride_d)))
    return BWGEMM_REASON_UNSUPPORTED_LAYOUT;
  return BWGEMM_REASON_KERNEL_SELECTED;
}

}  // namespace bwgemm
