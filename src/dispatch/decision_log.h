// SPDX-License-Identifier: MIT
// Remembering (per thread) and logging (per BWGEMM_LOG) each dispatch decision.
#pragma once

#include "api/raw_call.h"
#include "bwgemm/bwgemm.h"

namespace bwgemm {

// `kernel` is a static string ("" when forwarded).
void record_decision(const RawCall& call, bwgemmPath_t path, bwgemmReason_t reason,
                     const char* kernel);

// The calling thread's last decision.
void last_decision(bwgemmDispatchInfo_t* info);

const char* reason_name(bwgemmReason_t reason);
const char* reason_message(bwgemmReason_t reason);

// Tests only: forget which decisions were already logged.
void decision_log_reset();

}  // namespace bwgemm
