// SPDX-License-Identifier: MIT
// The sm100 kernel family as dispatch sees it. Dispatch guards its launches
// (dispatch/family_guard.h): no Blackwell GPU has run it yet.
#include "kernels/sm100/family.h"
#include "kernels/sm100/config.h"
#include "kernels/sm100/selection.h"
#include "kernels/sm100/variants.h"

namespace bwgemm::sm100 {

// Its kernel does not release its dependents early.
extern const VariantCatalog kCatalog = {"sm100", select_variant, tile_shape, false};

namespace {

LaunchResult launch(const GemmProblem& p, const DeviceCaps& caps, int config,
                    ErrorFlag error_flag) {
  return launch_gemm(kCatalog, p, caps, config, error_flag);
}

}  // namespace

extern const KernelFamily kFamily = {
    BWGEMM_PATH_SM100, "sm100",      true,   runs_on, supports,     choose_config,
    config_name,       kConfigCount, launch, nullptr, config_takes, nullptr};

}  // namespace bwgemm::sm100
