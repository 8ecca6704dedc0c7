// SPDX-License-Identifier: MIT
// The guard in front of a family no GPU of its architecture has proven
// (KernelFamily::guarded): a self-check against cuBLAS on first use per
// device, and the error flag through which the kernels' bounded waits report.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "core/device_caps.h"
#include "kernels/kernel_family.h"

namespace bwgemm {

enum class GuardDecision {
  kLaunch,           // checked and healthy: launch with *error_flag
  kPending,          // not checked yet (the stream is capturing): use cuBLAS this time
  kFailed,           // the self-check failed: the family is switched off
  kProtocolFailure,  // an earlier launch reported a failed wait: switched off now
};

// Library: dispatch/family_guard.cpp; the unit tests provide a fake.
GuardDecision guard_launch(const KernelFamily& family, const DeviceCaps& caps, cudaStream_t stream,
                           uint32_t** error_flag);

}  // namespace bwgemm
