// SPDX-License-Identifier: MIT
// The sm100 kernel family as dispatch sees it, and its guarded launcher.
#include "dispatch/kernel_family.h"
#include "kernels/sm100/guard.h"
#include "kernels/sm100/launch.h"
#include "kernels/sm100/selection.h"

namespace bwgemm::sm100 {

namespace {

// A protocol failure reported by an earlier launch surfaces here, on the
// next call, as cudaErrorLaunchFailure (the caller returns
// CUBLAS_STATUS_EXECUTION_FAILED); the other refusals forward to cuBLAS.
cudaError_t launch(const GemmProblem& p, const DeviceCaps& caps, int) {
  uint32_t* error_flag = nullptr;
  switch (guard_launch(caps, p.stream, &error_flag)) {
    case GuardDecision::kLaunch: return enqueue(p, caps, error_flag);
    case GuardDecision::kProtocolFailure: return cudaErrorLaunchFailure;
    case GuardDecision::kForward:
    case GuardDecision::kFailed: return cudaErrorNotReady;
  }
  return cudaErrorNotReady;
}

}  // namespace

extern const KernelFamily kFamily = {BWGEMM_PATH_SM100, "sm100",     runs_on, supports,
                                     choose_config,     config_name, launch};

}  // namespace bwgemm::sm100
