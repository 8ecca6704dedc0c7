// SPDX-License-Identifier: MIT
// The sm90 kernel family as dispatch sees it.
#include "kernels/sm90/family.h"
#include "kernels/common/launch_params.h"
#include "kernels/common/persistent_launch.h"
#include "kernels/common/ragged_edge.h"
#include "kernels/decode/launch.h"
#include "kernels/sm90/config.h"
#include "kernels/sm90/selection.h"
#include "kernels/sm90/variants.h"

namespace bwgemm::sm90 {

extern const VariantCatalog kCatalog = {"sm90", select_variant, tile_shape};

namespace {

bool reads_unaligned_b(const GemmProblem& p, int config) {
  if (config == kDecodeConfig) return false;
  const RowClassUse use = row_class_use(to_kernel_view(p), tile_shape(config, p.c_type));
  return use == RowClassUse::kRowOperand || use == RowClassUse::kRowWindows;
}

// The remainder's configuration: one CTA per 64 x 128 tile, so that a
// remainder of up to 64 rows of a large grid is one short wave.
constexpr int kEdgeConfig = shape_index("sm90_64x128x64_8stage_1cta");
static_assert(kEdgeConfig > 0 && kShapes[kEdgeConfig].layouts == kAllLayouts);

// A thin remainder of the grid that would take a wave of its own runs first
// on kEdgeConfig, then the body on `config` (ragged_edge.h). The body's
// parameters are built before anything is enqueued, and a remainder the
// launcher refuses leaves the call whole, so that nothing is enqueued unless
// both are. A configuration with row windows is never split: kEdgeConfig
// cannot read the B they read in place, so each call would build the body
// for nothing.
bool launch_split(const GemmProblem& p, const DeviceCaps& caps, int config, ErrorFlag error_flag,
                  LaunchResult* out) {
  if (kShapes[config].row_windows > 0) return false;
  const int sms = p.sm_count_target > 0 && p.sm_count_target < caps.sm_count ? p.sm_count_target
                                                                             : caps.sm_count;
  EdgeSplit split;
  if (!split_ragged_edge(p, tile_shape(config, p.c_type), sms / kShapes[config].cluster_size,
                         &split))
    return false;
  const KernelVariant* variant = nullptr;
  GemmParams body;
  if (build_launch(kCatalog, split.body, config, error_flag, &variant, &body) !=
      BWGEMM_REASON_KERNEL_SELECTED)
    return false;
  if (launch_gemm(kCatalog, split.edge, caps, kEdgeConfig, error_flag).status !=
      LaunchStatus::kEnqueued)
    return false;
  // The remainder is on the stream: the call can no longer go to cuBLAS whole.
  *out = launch_persistent(*variant, body, caps, p.sm_count_target, p.stream) == cudaSuccess
             ? LaunchResult{LaunchStatus::kEnqueued, BWGEMM_REASON_KERNEL_SELECTED}
             : LaunchResult{LaunchStatus::kEarlierFailure, BWGEMM_REASON_LAUNCH_FAILED};
  return true;
}

LaunchResult launch(const GemmProblem& p, const DeviceCaps& caps, int config,
                    ErrorFlag error_flag) {
  if (config == kDecodeConfig) return decode::launch(p);
  LaunchResult split;
  if (launch_split(p, caps, config, error_flag, &split)) return split;
  return launch_gemm(kCatalog, p, caps, config, error_flag);
}

}  // namespace

extern const KernelFamily kFamily = {
    BWGEMM_PATH_SM90, "sm90",           false,       runs_on,
    supports,         choose_config,    config_name, kFamilyConfigCount,
    launch,           reads_unaligned_b};

}  // namespace bwgemm::sm90
