// SPDX-License-Identifier: MIT
#include "kernels/common/kernel_launch.h"

#include <atomic>

#include "core/env_config.h"
#include "core/log.h"

namespace bwgemm {
namespace {

// The first failure of each kind is warned about; later ones are in the
// decision log (LAUNCH_FAILED) when BWGEMM_LOG asks, not on every call.
std::atomic<bool> g_map_failure_warned{false};
std::atomic<bool> g_launch_failure_warned{false};

}  // namespace

bwgemmReason_t build_launch(const VariantCatalog& catalog, const GemmProblem& p, int config,
                            ErrorFlag error_flag, const KernelVariant** variant,
                            GemmParams* params) {
  const KernelView view = to_kernel_view(p);
  const TileShape shape = catalog.tile_shape(config, view.out_type);
  if (!plan_loads(view, shape).supported) return BWGEMM_REASON_UNSUPPORTED_LAYOUT;
  *variant = catalog.select(config, variant_key(view));
  // choose_config offers only compiled configurations.
  if (*variant == nullptr) return BWGEMM_REASON_LAUNCH_FAILED;
  if (!make_launch_params(view, shape, params)) {
    if (!g_map_failure_warned.exchange(true))
      log_warning("%s: the driver rejected a TMA map; forwarding to cuBLAS", catalog.family_name);
    return BWGEMM_REASON_LAUNCH_FAILED;
  }
  params->error_flag = error_flag;
  params->wait_budget_ns = wait_budget_ns(env_config().wait_timeout_ms, view.depth);
  return BWGEMM_REASON_KERNEL_SELECTED;
}

LaunchResult launch_gemm(const VariantCatalog& catalog, const GemmProblem& p,
                         const DeviceCaps& caps, int config, ErrorFlag error_flag) {
  const KernelVariant* variant = nullptr;
  GemmParams params;
  const bwgemmReason_t reason = build_launch(catalog, p, config, error_flag, &variant, &params);
  if (reason != BWGEMM_REASON_KERNEL_SELECTED) return {LaunchStatus::kForward, reason};
  const cudaError_t err = launch_persistent(*variant, params, caps, p.sm_count_target, p.stream);
  if (err != cudaSuccess) {
    if (!g_launch_failure_warned.exchange(true))
      log_warning("%s kernel launch failed (CUDA error %d); forwarding to cuBLAS",
                  catalog.family_name, static_cast<int>(err));
    return {LaunchStatus::kForward, BWGEMM_REASON_LAUNCH_FAILED};
  }
  return {LaunchStatus::kEnqueued, BWGEMM_REASON_KERNEL_SELECTED};
}

}  // namespace bwgemm
