// SPDX-License-Identifier: MIT
// The one path every GEMM entry point takes: decode, plan, then launch a
// bwgemm kernel or forward the original call to cuBLAS.
#pragma once

#include "api/raw_call.h"
#include "bwgemm/bwgemm.h"

namespace bwgemm {

cublasStatus_t run_gemm(const RawCall& call);

bwgemmPolicy_t thread_policy();
void set_thread_policy(bwgemmPolicy_t policy);

}  // namespace bwgemm
