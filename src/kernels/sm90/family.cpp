// SPDX-License-Identifier: MIT
// The sm90 kernel family as dispatch sees it: where it runs, what it takes,
// and its launcher.
#include <cuda_runtime.h>

#include "dispatch/kernel_family.h"
#include "kernels/common/launch_params.h"
#include "kernels/common/persistent_launch.h"
#include "kernels/sm90/policy.h"
#include "kernels/sm90/variants.h"

namespace bwgemm::sm90 {
namespace {

bool runs_on(const DeviceCaps& caps) { return caps.cc_major == 9 && caps.cc_minor == 0; }

bwgemmReason_t supports(const GemmProblem& p, const DeviceCaps& caps) {
  const Variant& v = select_variant(p.ab_type, p.c_type, p.trans_b, !p.trans_a);
  if (caps.smem_per_block_optin < int(v.smem_bytes)) return BWGEMM_REASON_NO_KERNEL_FOR_ARCH;
  return BWGEMM_REASON_KERNEL_SELECTED;
}

int choose_config(const GemmProblem& p, const DeviceCaps& caps, bool forced) {
  return forced || policy_prefers_kernel(p, caps) ? 0 : -1;
}

const char* config_name(int) { return "sm90_128x256x64_3stage_cluster2"; }

cudaError_t launch(const GemmProblem& p, const DeviceCaps& caps, int) {
  const Variant& v = select_variant(p.ab_type, p.c_type, p.trans_b, !p.trans_a);
  TileShape shape = tile_shape();
  shape.out_box_cols = 128 / int(dtype_size(p.c_type));
  GemmParams params;
  if (!make_launch_params(p, shape, &params)) return cudaErrorInvalidValue;
  return launch_persistent(v, params, caps, p.stream);
}

}  // namespace

extern const KernelFamily kFamily = {BWGEMM_PATH_SM90, "sm90",      runs_on, supports,
                                     choose_config,    config_name, launch};

}  // namespace bwgemm::sm90
