// SPDX-License-Identifier: MIT
#include "kernels/sm100/selection.h"

#include "kernels/sm100/config.h"

namespace bwgemm::sm100 {

bool runs_on(const DeviceCaps& caps) {
  return caps.cc_major == 10 && (caps.cc_minor == 0 || caps.cc_minor == 3);
}

bwgemmReason_t supports(const GemmProblem&, const DeviceCaps& caps) {
  // Every variant has the same shared-memory footprint.
  if (caps.smem_per_block_optin < int(Config<__half, __half, false, false>::kSmemBytes))
    return BWGEMM_REASON_NO_KERNEL_FOR_ARCH;
  return BWGEMM_REASON_KERNEL_SELECTED;
}

int choose_config(const GemmProblem&, const DeviceCaps&, bool) { return 0; }

}  // namespace bwgemm::sm100
