// SPDX-License-Identifier: MIT
// cublasCreate_v2 and cublasDestroy_v2, interposed under cuBLAS's node like
// the GEMM entry points (see gemm_exports.cpp for the visibility dance): each
// is forwarded to the real cuBLAS, and bwgemm records which handles it made,
// so that a GEMM call on any other handle (another copy of cuBLAS made it) is
// forwarded without bwgemm reading it (src/forward/handle_registry.h).
#pragma GCC visibility push(default)
#include <cublas_api.h>
#pragma GCC visibility pop

#include "forward/handle_registry.h"

extern "C" cublasStatus_t cublasCreate_v2(cublasHandle_t* handle) {
  return bwgemm::create_handle(handle);
}

extern "C" cublasStatus_t cublasDestroy_v2(cublasHandle_t handle) {
  return bwgemm::destroy_handle(handle);
}
