// SPDX-License-Identifier: MIT
// Locating and calling the real cuBLASLt: its matmul, the descriptor getters
// bwgemm decodes a cublasLtMatmul call with, and the matmul descriptor's
// setter (on bwgemm's own copies only: lt_decode.cpp).
#pragma once

#include <cublasLt.h>

#include "core/raw_call.h"

namespace bwgemm {

struct RealCublasLt {
  decltype(&cublasLtMatmul) matmul;
  decltype(&cublasLtMatmulDescGetAttribute) desc_get_attribute;
  decltype(&cublasLtMatmulDescSetAttribute) desc_set_attribute;
  decltype(&cublasLtMatrixLayoutGetAttribute) layout_get_attribute;
};

// The real cuBLASLt, resolved once like real_cublas(): the library loaded
// under the soname libcublasLt.so.<major> (RTLD_NOLOAD first), else a dlopen
// of that soname, or of $BWGEMM_CUBLASLT_LIBRARY when set. Never this library
// itself. NULL when none can be found; the reason is logged once.
const RealCublasLt* real_cublaslt();

// cublasLtMatmul of the real cuBLASLt with the caller's arguments, unchanged,
// inside a RealCallScope. CUBLAS_STATUS_NOT_INITIALIZED when cuBLASLt cannot
// be found.
cublasStatus_t forward_lt_matmul(const LtMatmulArgs& a);

}  // namespace bwgemm
