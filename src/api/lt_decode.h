// SPDX-License-Identifier: MIT
// Decoding a cublasLtMatmul call: its opaque descriptors are read through the
// real cuBLASLt's own getters into the cuBLAS-shaped fields of a RawCall
// (sizes, types, ops, leading dimensions, batch) and what only cuBLASLt has
// (D, pointer mode, bias and activation). Everything else a descriptor can
// hold must be at its default, or the call is forwarded unchanged. Two steps,
// because every getter call is forwarding cost: what the plan needs first,
// the rest only for a call the plan gives a kernel.
#pragma once

#include "bwgemm/bwgemm.h"
#include "core/raw_call.h"
#include "forward/real_cublaslt.h"

namespace bwgemm {

// Fills `call` (entry LtMatmul, lt = &args, lt_decoded = decoded) and
// `decoded`, all but the bias and SM target. BWGEMM_REASON_KERNEL_SELECTED
// when the descriptors describe a call bwgemm may plan (classify_call still
// checks it like any other); otherwise why it is forwarded: INVALID_ARGUMENT
// (NULL or unreadable descriptors, sizes that disagree: cuBLASLt reports
// them), UNSUPPORTED_TYPES, or LT_UNSUPPORTED (an order, epilogue or pointer
// mode bwgemm does not implement). Its getters are a pure function of the
// descriptors' bytes: each thread keeps its last few readings and reads a
// repeated set once (lt_decode.cpp).
bwgemmReason_t decode_lt_call(const RealCublasLt& lt, const LtMatmulArgs& args, RawCall* call,
                              LtDecoded* decoded);

// The second step, after decode_lt_call succeeded on this thread with the
// same `decoded` (whose kept reading it completes): the bias vector, the SM
// target, and the attributes bwgemm does not implement (which must hold
// their defaults: LT_UNSUPPORTED otherwise, as for a plane offset or batch
// mode). INVALID_ARGUMENT or UNSUPPORTED_TYPES for a bias cuBLASLt must
// judge. d_type: D's type.
bwgemmReason_t decode_lt_kernel_attributes(const RealCublasLt& lt, const LtMatmulArgs& args,
                                           cudaDataType d_type, LtDecoded* decoded);

// Forgets the calling thread's kept readings (unit tests count getters from
// a cold start).
void forget_lt_readings();

}  // namespace bwgemm
