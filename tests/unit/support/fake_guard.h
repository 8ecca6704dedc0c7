// SPDX-License-Identifier: MIT
// The fake guard_launch() the unit tests link instead of
// dispatch/family_guard.cpp (which allocates and runs kernels): it decides
// as the test says and counts its calls.
#pragma once

#include <cstdint>

#include "dispatch/family_guard.h"

namespace fake {

// Launches allowed, no calls counted, the flag cleared.
void reset_guard();
void set_guard_decision(bwgemm::GuardDecision decision);
// The error flag handed out with kLaunch.
uint32_t* guard_error_flag();
int guard_calls();

}  // namespace fake
