// SPDX-License-Identifier: MIT
// Decoding a cublasLtMatmul call: its opaque descriptors are read through the
// real cuBLASLt's own getters into the cuBLAS-shaped fields of a RawCall
// (sizes, types, ops, leading dimensions, batch) and what only cuBLASLt has
// (D, pointer mode, bias and activation). Everything else a descriptor can
// hold must be at its default, or the call is forwarded unchanged.
#pragma once

#include "bwgemm/bwgemm.h"
#include "core/raw_call.h"
#include "forward/real_cublaslt.h"

namespace bwgemm {

// Fills `call` (entry LtMatmul, lt = &args, lt_decoded = decoded) and
// `decoded`. BWGEMM_REASON_KERNEL_SELECTED when the descriptors describe a
// call bwgemm may take (classify_call still checks it like any other);
// otherwise why it is forwarded: INVALID_ARGUMENT (NULL or unreadable
// descriptors, sizes that disagree: cuBLASLt reports them), UNSUPPORTED_TYPES,
// or LT_UNSUPPORTED (an order, batch mode, epilogue, pointer mode or
// attribute bwgemm does not implement).
bwgemmReason_t decode_lt_call(const RealCublasLt& lt, const LtMatmulArgs& args, RawCall* call,
                              LtDecoded* decoded);

}  // namespace bwgemm
