// SPDX-License-Identifier: MIT
// The sm90 kernel family as dispatch sees it.
#include "kernels/common/kernel_launch.h"
#include "kernels/sm90/selection.h"
#include "kernels/sm90/variants.h"

namespace bwgemm::sm90 {
namespace {

LaunchResult launch(const GemmProblem& p, const DeviceCaps& caps, int config,
                    ErrorFlag error_flag) {
  static const VariantCatalog catalog = {"sm90", select_variant, tile_shape};
  return launch_gemm(catalog, p, caps, config, error_flag);
}

}  // namespace

extern const KernelFamily kFamily = {BWGEMM_PATH_SM90, "sm90",        false,       runs_on,
                                     supports,         choose_config, config_name, launch};

}  // namespace bwgemm::sm90
