// SPDX-License-Identifier: MIT
#include "dispatch/plan.h"

namespace bwgemm {

Plan plan_gemm(const GemmProblem& p, const DeviceCaps& caps, bwgemmPolicy_t policy,
               KernelFamilyList families, DisabledPaths disabled, const TunedRules* tuned) {
  if (policy == BWGEMM_POLICY_FORCE_CUBLAS)
    return {nullptr, -1, BWGEMM_REASON_FORCED_CUBLAS, nullptr};
  const KernelFamily* family = nullptr;
  for (int i = 0; i < families.count && family == nullptr; ++i)
    if (families.items[i]->runs_on(caps)) family = families.items[i];
  if (family == nullptr) return {nullptr, -1, BWGEMM_REASON_NO_KERNEL_FOR_ARCH, nullptr};
  if (disabled & (1u << family->path)) return {nullptr, -1, BWGEMM_REASON_FAMILY_DISABLED, nullptr};
  const bwgemmReason_t support = family->supports(p, caps);
  if (support != BWGEMM_REASON_KERNEL_SELECTED) return {nullptr, -1, support, nullptr};
  ConfigChoice choice;
  if (policy != BWGEMM_POLICY_AUTO || tuned == nullptr ||
      !tuned_choice(*tuned, *family, p, &choice))
    choice = family->choose_config(p, caps, policy == BWGEMM_POLICY_FORCE_KERNEL);
  if (choice.config < 0) return {nullptr, -1, BWGEMM_REASON_POLICY_PREFERS_CUBLAS, choice.rule};
  return {family, choice.config, BWGEMM_REASON_KERNEL_SELECTED, choice.rule};
}

}  // namespace bwgemm
