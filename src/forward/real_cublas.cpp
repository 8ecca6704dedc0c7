// SPDX-License-Identifier: MIT
#include "forward/real_cublas.h"

#include <atomic>

#include "core/env_config.h"
#include "forward/library_lookup.h"
#include "forward/real_call_scope.h"
#include "forward/real_cublaslt.h"

namespace bwgemm {
namespace {

// The version node cuBLAS puts on every export, and its soname.
constexpr const char* kCublasNode = BWGEMM_SONAME("libcublas");

const RealLibrary kCublas{"cuBLAS", kCublasNode, "BWGEMM_CUBLAS_LIBRARY"};

std::atomic<int> g_state{0};
RealCublas g_real;

bool resolve_all() {
  const char* override_name = env_config().cublas_library;
  const char* name = override_name != nullptr ? override_name : kCublasNode;
  void* lib = open_real_library(kCublas, name);
  if (lib == nullptr) return false;
  RealCublas r{};
  bool ok =
      resolve_required(kCublas, lib, "cublasGemmEx", &r.gemm_ex) &&
      resolve_required(kCublas, lib, "cublasGemmEx_64", &r.gemm_ex_64) &&
      resolve_required(kCublas, lib, "cublasGemmStridedBatchedEx", &r.gemm_strided_batched_ex) &&
      resolve_required(kCublas, lib, "cublasGemmStridedBatchedEx_64",
                       &r.gemm_strided_batched_ex_64) &&
      resolve_required(kCublas, lib, "cublasGemmBatchedEx", &r.gemm_batched_ex) &&
      resolve_required(kCublas, lib, "cublasGemmBatchedEx_64", &r.gemm_batched_ex_64) &&
      resolve_required(kCublas, lib, "cublasGetPointerMode_v2", &r.get_pointer_mode) &&
      resolve_required(kCublas, lib, "cublasGetStream_v2", &r.get_stream);
  if (!ok) return false;
  resolve_optional(kCublas, lib, "cublasCreate_v2", &r.create);
  resolve_optional(kCublas, lib, "cublasDestroy_v2", &r.destroy);
  resolve_optional(kCublas, lib, "cublasSetStream_v2", &r.set_stream);
  resolve_optional(kCublas, lib, "cublasGetSmCountTarget", &r.get_sm_count_target);
  resolve_optional(kCublas, lib, "cublasGetProperty", &r.get_property);
  g_real = r;
  return true;
}

}  // namespace

const RealCublas* real_cublas() { return resolve_once(&g_state, resolve_all) ? &g_real : nullptr; }

cublasStatus_t forward_call(const RawCall& c) {
  if (c.entry == EntryPoint::LtMatmul) return forward_lt_matmul(*c.lt);
  const RealCublas* r = real_cublas();
  if (r == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
  // cuBLAS's own calls into cuBLASLt pass straight through (real_call_scope.h).
  const RealCallScope inside;
  // Narrow entry points get their int arguments back exactly as passed.
  const int m = static_cast<int>(c.m), n = static_cast<int>(c.n), k = static_cast<int>(c.k);
  const int lda = static_cast<int>(c.lda), ldb = static_cast<int>(c.ldb),
            ldc = static_cast<int>(c.ldc), batch = static_cast<int>(c.batch);
  switch (c.entry) {
    case EntryPoint::GemmEx:
      return r->gemm_ex(c.handle, c.transa, c.transb, m, n, k, c.alpha, c.A, c.Atype, lda, c.B,
                        c.Btype, ldb, c.beta, c.C, c.Ctype, ldc, c.compute, c.algo);
    case EntryPoint::GemmEx_64:
      return r->gemm_ex_64(c.handle, c.transa, c.transb, c.m, c.n, c.k, c.alpha, c.A, c.Atype,
                           c.lda, c.B, c.Btype, c.ldb, c.beta, c.C, c.Ctype, c.ldc, c.compute,
                           c.algo);
    case EntryPoint::GemmStridedBatchedEx:
      return r->gemm_strided_batched_ex(
          c.handle, c.transa, c.transb, m, n, k, c.alpha, c.A, c.Atype, lda, c.strideA, c.B,
          c.Btype, ldb, c.strideB, c.beta, c.C, c.Ctype, ldc, c.strideC, batch, c.compute, c.algo);
    case EntryPoint::GemmStridedBatchedEx_64:
      return r->gemm_strided_batched_ex_64(c.handle, c.transa, c.transb, c.m, c.n, c.k, c.alpha,
                                           c.A, c.Atype, c.lda, c.strideA, c.B, c.Btype, c.ldb,
                                           c.strideB, c.beta, c.C, c.Ctype, c.ldc, c.strideC,
                                           c.batch, c.compute, c.algo);
    case EntryPoint::GemmBatchedEx:
      return r->gemm_batched_ex(c.handle, c.transa, c.transb, m, n, k, c.alpha, c.Aarray, c.Atype,
                                lda, c.Barray, c.Btype, ldb, c.beta, c.Carray, c.Ctype, ldc, batch,
                                c.compute, c.algo);
    case EntryPoint::GemmBatchedEx_64:
      return r->gemm_batched_ex_64(c.handle, c.transa, c.transb, c.m, c.n, c.k, c.alpha, c.Aarray,
                                   c.Atype, c.lda, c.Barray, c.Btype, c.ldb, c.beta, c.Carray,
                                   c.Ctype, c.ldc, c.batch, c.compute, c.algo);
    case EntryPoint::LtMatmul: break;  // forwarded above
  }
  return CUBLAS_STATUS_INTERNAL_ERROR;
}

}  // namespace bwgemm
