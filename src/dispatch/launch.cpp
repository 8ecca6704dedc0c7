// SPDX-License-Identifier: MIT
#include "dispatch/launch.h"

#include "dispatch/family_guard.h"

namespace bwgemm {

LaunchResult launch_planned(const Plan& plan, const GemmProblem& p, const DeviceCaps& caps) {
  const KernelFamily& family = *plan.family;
  uint32_t* error_flag = nullptr;
  if (family.guarded) {
    switch (guard_launch(family, caps, p.stream, &error_flag)) {
      case GuardDecision::kLaunch: break;
      case GuardDecision::kPending:
        return {LaunchStatus::kForward, BWGEMM_REASON_SELF_CHECK_PENDING};
      case GuardDecision::kFailed: return {LaunchStatus::kForward, BWGEMM_REASON_FAMILY_DISABLED};
      case GuardDecision::kProtocolFailure:
        return {LaunchStatus::kEarlierFailure, BWGEMM_REASON_LAUNCH_FAILED};
    }
  }
  return family.launch(p, caps, plan.config, error_flag);
}

}  // namespace bwgemm
