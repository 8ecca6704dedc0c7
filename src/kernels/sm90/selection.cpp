// SPDX-License-Identifier: MIT
#include "kernels/sm90/selection.h"

#include "kernels/sm90/config.h"
#include "kernels/sm90/policy.h"

namespace bwgemm::sm90 {

bool runs_on(const DeviceCaps& caps) { return caps.cc_major == 9 && caps.cc_minor == 0; }

bwgemmReason_t supports(const GemmProblem&, const DeviceCaps& caps) {
  // Every variant has the same shared-memory footprint.
  if (caps.smem_per_block_optin < int(Config<__half, __half, false, false>::kSmemBytes))
    return BWGEMM_REASON_NO_KERNEL_FOR_ARCH;
  return BWGEMM_REASON_KERNEL_SELECTED;
}

int choose_config(const GemmProblem& p, const DeviceCaps& caps, bool forced) {
  return forced || policy_prefers_kernel(p, caps) ? 0 : -1;
}

}  // namespace bwgemm::sm90
