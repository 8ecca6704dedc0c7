// SPDX-License-Identifier: MIT
// Which kernel families are switched off for the process: by the environment
// (BWGEMM_SM90=off, BWGEMM_SM100=off) or at run time (a failed self-check, a
// kernel that reported a protocol error).
#pragma once

#include "bwgemm/bwgemm.h"
#include "dispatch/plan.h"

namespace bwgemm {

DisabledPaths disabled_paths();

// Switches `path` off for the rest of the process and logs a warning once.
void disable_path(bwgemmPath_t path, const char* why);

// Tests only: switch every path back on.
void path_switch_reset();

}  // namespace bwgemm
