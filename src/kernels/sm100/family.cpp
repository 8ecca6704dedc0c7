// SPDX-License-Identifier: MIT
// The sm100 kernel family as dispatch sees it. Dispatch guards its launches
// (dispatch/family_guard.h): no Blackwell GPU has run it yet.
#include "kernels/common/kernel_launch.h"
#include "kernels/sm100/selection.h"
#include "kernels/sm100/variants.h"

namespace bwgemm::sm100 {
namespace {

LaunchResult launch(const GemmProblem& p, const DeviceCaps& caps, int config,
                    ErrorFlag error_flag) {
  static const VariantCatalog catalog = {"sm100", select_variant, tile_shape};
  return launch_gemm(catalog, p, caps, config, error_flag);
}

}  // namespace

extern const KernelFamily kFamily = {BWGEMM_PATH_SM100, "sm100",       true,        runs_on,
                                     supports,          choose_config, config_name, launch};

}  // namespace bwgemm::sm100
