// SPDX-License-Identifier: MIT
// One decoder for every entry point: argument checks with cuBLAS 13.1's rules,
// type support, and the translation of a RawCall into a GemmProblem.
#pragma once

#include "bwgemm/bwgemm.h"
#include "core/problem.h"
#include "core/raw_call.h"

namespace bwgemm {

// Decides from the arguments alone (the handle is not touched, no pointer is
// dereferenced) whether bwgemm may take the call. Returns
// BWGEMM_REASON_KERNEL_SELECTED for a candidate; any other reason means the
// call is forwarded unchanged: invalid arguments and NULL pointers on a
// non-empty problem (cuBLAS reports them), quick
// returns, and everything bwgemm does not run.
bwgemmReason_t classify_call(const RawCall& call);

// Builds the problem of a candidate call. Host-mode scalars are read here, as
// the compute type implies (float for the 32F compute types bwgemm takes).
GemmProblem make_problem(const RawCall& call, cublasPointerMode_t mode, cudaStream_t stream);

// Checks what the kernels need of memory: element-aligned bases,
// non-overlapping C across a batch, sizes and strides in range. (Which
// layouts the kernels load at full speed is the launcher's load plan.)
bwgemmReason_t check_layout(const GemmProblem& p);

}  // namespace bwgemm
