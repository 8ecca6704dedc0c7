// SPDX-License-Identifier: MIT
// The sm90 kernel family as dispatch sees it.
#include "kernels/sm90/family.h"
#include "kernels/common/launch_params.h"
#include "kernels/decode/launch.h"
#include "kernels/sm90/config.h"
#include "kernels/sm90/selection.h"
#include "kernels/sm90/variants.h"

namespace bwgemm::sm90 {

extern const VariantCatalog kCatalog = {"sm90", select_variant, tile_shape};

namespace {

bool reads_unaligned_b(const GemmProblem& p, int config) {
  return config != kDecodeConfig &&
         row_class_use(to_kernel_view(p), tile_shape(config, p.c_type)) == RowClassUse::kRowOperand;
}

LaunchResult launch(const GemmProblem& p, const DeviceCaps& caps, int config,
                    ErrorFlag error_flag) {
  if (config == kDecodeConfig) return decode::launch(p);
  return launch_gemm(kCatalog, p, caps, config, error_flag);
}

}  // namespace

extern const KernelFamily kFamily = {
    BWGEMM_PATH_SM90, "sm90",           false,       runs_on,
    supports,         choose_config,    config_name, kFamilyConfigCount,
    launch,           reads_unaligned_b};

}  // namespace bwgemm::sm90
