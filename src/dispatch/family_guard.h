// SPDX-License-Identifier: MIT
// The guard in front of a family no GPU of its architecture has proven
// (KernelFamily::guarded): a self-check against cuBLAS on first use per
// device, and the error flag through which the kernels' bounded waits report
// which call failed. Everything is per device: a failure switches the family
// off on its device only, and a device reset (a new context) is noticed and
// the device's state rebuilt.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>

#include "core/device_caps.h"
#include "kernels/kernel_family.h"

namespace bwgemm {

enum class GuardDecision {
  kLaunch,           // checked and healthy: launch with *error_flag
  kPending,          // not checked yet (the stream is capturing): use cuBLAS this time
  kFailed,           // switched off on this device (a failed check or an earlier failure)
  kProtocolFailure,  // an earlier launch on this stream reported a failed wait: switched off now
};

// Library: dispatch/family_guard.cpp; the unit tests provide a fake. On
// kLaunch, *error_flag names this call (its shape and stream are recorded).
GuardDecision guard_launch(const KernelFamily& family, const DeviceCaps& caps,
                           const GemmProblem& problem, ErrorFlag* error_flag);

// Tests only: replaces the GPU self-check (which needs a GPU and cuBLAS) by
// `check`, or restores it when NULL; and forgets every device's state.
using SelfCheckRunner = bool (*)(const KernelFamily& family, const DeviceCaps& caps, ErrorFlag flag,
                                 const volatile uint32_t* host_flag, std::string* failure);
void set_self_check_runner(SelfCheckRunner check);
void family_guard_reset();

}  // namespace bwgemm
