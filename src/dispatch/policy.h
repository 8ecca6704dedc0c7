// SPDX-License-Identifier: MIT
// The dispatch policy, decided in one place. Precedence, highest first:
//   1. BWGEMM_DISABLE=1 in the environment: every call goes to cuBLAS;
//   2. the calling thread's bwgemmSetThreadPolicy, when it is not AUTO;
//   3. BWGEMM_POLICY=auto|kernel|cublas in the environment;
//   4. AUTO: each family's measured per-device selection (choose_config).
#pragma once

#include "bwgemm/bwgemm.h"
#include "core/env_config.h"

namespace bwgemm {

struct Policy {
  bwgemmPolicy_t mode;
  // Why cuBLAS when mode is FORCE_CUBLAS: DISABLED_BY_ENV or FORCED_CUBLAS.
  bwgemmReason_t reason;
};

Policy resolve_policy(const EnvConfig& env, bwgemmPolicy_t thread_policy);

// The calling thread's bwgemmSetThreadPolicy (AUTO until set).
bwgemmPolicy_t thread_policy();
void set_thread_policy(bwgemmPolicy_t policy);

}  // namespace bwgemm
