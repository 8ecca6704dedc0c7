// SPDX-License-Identifier: MIT
// The one path every GEMM entry point takes: decode, plan, then launch a
// bwgemm kernel or forward the original call to cuBLAS.
#pragma once

#include "bwgemm/bwgemm.h"
#include "core/raw_call.h"

namespace bwgemm {

cublasStatus_t run_gemm(const RawCall& call);

// cublasLtMatmul: the descriptors decoded (lt_decode.h), then the same path.
cublasStatus_t run_lt_matmul(const LtMatmulArgs& args);

}  // namespace bwgemm
