// SPDX-License-Identifier: MIT
// Remembering (per thread) and logging (per BWGEMM_LOG) each dispatch decision.
#pragma once

#include "bwgemm/bwgemm.h"
#include "core/raw_call.h"

namespace bwgemm {

// `kernel` is a static string ("" when forwarded); `rule`, a static string or
// NULL, is the kernel family's selection rule that decided (it becomes the
// reason's message in bwgemmGetLastDispatch and is logged).
void record_decision(const RawCall& call, bwgemmPath_t path, bwgemmReason_t reason,
                     const char* kernel, const char* rule = nullptr);

// The calling thread's last decision.
void last_decision(bwgemmDispatchInfo_t* info);

// Tests only: forget which decisions were already logged.
void decision_log_reset();

}  // namespace bwgemm
