// SPDX-License-Identifier: MIT
// Where the sm90 family runs and what it takes: pure functions of the
// problem and the device, unit-tested with mocked capabilities.
#pragma once

#include "bwgemm/bwgemm.h"
#include "core/device_caps.h"
#include "core/problem.h"

namespace bwgemm::sm90 {

// Compute capability 9.0 (H100/H200): the sm_90a code in this library.
bool runs_on(const DeviceCaps& caps);

bwgemmReason_t supports(const GemmProblem& p, const DeviceCaps& caps);

// Configuration 0 where the measured policy (policy.h) prefers the kernel,
// or always when `forced`; -1 otherwise.
int choose_config(const GemmProblem& p, const DeviceCaps& caps, bool forced);

}  // namespace bwgemm::sm90
