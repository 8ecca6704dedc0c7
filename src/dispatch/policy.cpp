// SPDX-License-Identifier: MIT
#include "dispatch/policy.h"

namespace bwgemm {
namespace {

thread_local bwgemmPolicy_t t_policy = BWGEMM_POLICY_AUTO;

}  // namespace

Policy resolve_policy(const EnvConfig& env, bwgemmPolicy_t thread) {
  if (env.disable) return {BWGEMM_POLICY_FORCE_CUBLAS, BWGEMM_REASON_DISABLED_BY_ENV};
  const bwgemmPolicy_t mode = thread != BWGEMM_POLICY_AUTO ? thread : env.policy;
  return {mode, mode == BWGEMM_POLICY_FORCE_CUBLAS ? BWGEMM_REASON_FORCED_CUBLAS
                                                   : BWGEMM_REASON_KERNEL_SELECTED};
}

bwgemmPolicy_t thread_policy() { return t_policy; }
void set_thread_policy(bwgemmPolicy_t policy) { t_policy = policy; }

}  // namespace bwgemm
