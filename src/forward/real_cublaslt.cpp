// SPDX-License-Identifier: MIT
#include "forward/real_cublaslt.h"

#include <atomic>

#include "core/env_config.h"
#include "forward/library_lookup.h"
#include "forward/real_call_scope.h"

namespace bwgemm {
namespace {

// cuBLASLt's soname and version node follow cuBLAS's major version.
constexpr const char* kCublasLtNode = BWGEMM_SONAME("libcublasLt");

const RealLibrary kCublasLt{"cuBLASLt", kCublasLtNode, "BWGEMM_CUBLASLT_LIBRARY"};

std::atomic<int> g_state{0};
RealCublasLt g_real;

bool resolve_all() {
  const char* override_name = env_config().cublaslt_library;
  void* lib =
      open_real_library(kCublasLt, override_name != nullptr ? override_name : kCublasLtNode);
  if (lib == nullptr) return false;
  RealCublasLt r{};
  if (!resolve_required(kCublasLt, lib, "cublasLtMatmul", &r.matmul) ||
      !resolve_required(kCublasLt, lib, "cublasLtMatmulDescGetAttribute", &r.desc_get_attribute) ||
      !resolve_required(kCublasLt, lib, "cublasLtMatmulDescSetAttribute", &r.desc_set_attribute) ||
      !resolve_required(kCublasLt, lib, "cublasLtMatrixLayoutGetAttribute",
                        &r.layout_get_attribute))
    return false;
  g_real = r;
  return true;
}

}  // namespace

const RealCublasLt* real_cublaslt() {
  return resolve_once(&g_state, resolve_all) ? &g_real : nullptr;
}

cublasStatus_t forward_lt_matmul(const LtMatmulArgs& a) {
  const RealCublasLt* r = real_cublaslt();
  if (r == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
  const RealCallScope inside;
  return r->matmul(a.handle, a.desc, a.alpha, a.A, a.Adesc, a.B, a.Bdesc, a.beta, a.C, a.Cdesc, a.D,
                   a.Ddesc, a.algo, a.workspace, a.workspace_bytes, a.stream);
}

}  // namespace bwgemm
