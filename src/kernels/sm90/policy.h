// SPDX-License-Identifier: MIT
// Which sm90 configuration runs a problem under BWGEMM_POLICY_AUTO, or cuBLAS:
// one table of shape classes (policy.cpp keeps it, with the measurements or
// arguments behind each row).
#pragma once

#include "core/device_caps.h"
#include "core/problem.h"
#include "kernels/kernel_family.h"

namespace bwgemm::sm90 {

// The configuration is an index into config.h's kShapes; -1: cuBLAS.
ConfigChoice select_config(const GemmProblem& p, const DeviceCaps& caps);

}  // namespace bwgemm::sm90
