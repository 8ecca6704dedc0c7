// SPDX-License-Identifier: MIT
// The dispatch decision: a pure function of the problem, the device and the
// policy.
#pragma once

#include <cstdint>

#include "bwgemm/bwgemm.h"
#include "dispatch/registry.h"
#include "dispatch/tuned_policy.h"

namespace bwgemm {

struct Plan {
  const KernelFamily* family;  // NULL: forward to cuBLAS
  int config;
  bwgemmReason_t reason;
  const char* rule;  // the family's selection rule for `config`, or NULL
};

// Paths the environment switches off for the process, as a bit mask of
// (1u << bwgemmPath_t). A failed self-check or kernel switches a family off
// per device, in its guard.
using DisabledPaths = uint32_t;

// tuned: the device's rules from a policy file (tuned_policy.h), or NULL; under
// AUTO their choice comes before the family's own table.
Plan plan_gemm(const GemmProblem& p, const DeviceCaps& caps, bwgemmPolicy_t policy,
               KernelFamilyList families, DisabledPaths disabled,
               const TunedRules* tuned = nullptr);

}  // namespace bwgemm
