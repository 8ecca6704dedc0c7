// SPDX-License-Identifier: MIT
// The per-device state of the sm100 guard: the self-check on first use and
// the error flag through which the kernels' bounded waits report.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "dispatch/device_caps.h"

namespace bwgemm::sm100 {

enum class GuardDecision {
  kLaunch,           // checked and healthy: launch with *error_flag
  kForward,          // not checked yet (the stream is capturing): use cuBLAS this time
  kFailed,           // the self-check failed: the family is switched off
  kProtocolFailure,  // an earlier launch reported a failed wait: switched off
};

GuardDecision guard_launch(const DeviceCaps& caps, cudaStream_t stream, uint32_t** error_flag);

}  // namespace bwgemm::sm100
