// SPDX-License-Identifier: MIT
// Where the sm90 kernel runs under BWGEMM_POLICY_AUTO: the shape classes
// where bwgemm-bench measured it at least as fast as cuBLAS (policy.cpp keeps
// the rule and the measurements beside it).
#pragma once

#include "core/device_caps.h"
#include "core/problem.h"

namespace bwgemm::sm90 {

// True when the measured policy prefers the sm90 kernel for `p`.
bool policy_prefers_kernel(const GemmProblem& p, const DeviceCaps& caps);

}  // namespace bwgemm::sm90
