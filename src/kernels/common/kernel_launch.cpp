// SPDX-License-Identifier: MIT
#include "kernels/common/kernel_launch.h"

#include <atomic>
#include <cstdint>
#include <limits>

#include "core/env_config.h"
#include "core/launch_order.h"
#include "core/log.h"
#include "core/recent_values.h"
#include "kernels/common/tile_split.h"

namespace bwgemm {
namespace {

// The first failure of each kind is warned about; later ones are in the
// decision log (LAUNCH_FAILED) when BWGEMM_LOG asks, not on every call.
std::atomic<bool> g_map_failure_warned{false};
std::atomic<bool> g_launch_failure_warned{false};

// build_launch's inputs, and what it built from them. The guard's error flag
// is not part of the key: a guarded family's every call has a tag of its own,
// written into the build it launches. The device's SM count bounds the grid
// the scheduler's column rotation is chosen for.
struct BuildKey {
  const VariantCatalog* catalog;
  GemmProblem problem;
  int config;
  uint64_t wait_budget_ns;
  int sm_count;
};

bool operator==(const BuildKey& x, const BuildKey& y) {
  return x.catalog == y.catalog && x.problem == y.problem && x.config == y.config &&
         x.wait_budget_ns == y.wait_budget_ns && x.sm_count == y.sm_count;
}

struct Build {
  const KernelVariant* variant;
  GemmParams params;
};

// A build is a pure function of its key (a tensor map holds addresses and
// sizes, nothing of a context), and a program repeats its calls: each thread
// keeps its last builds and launches a match from where it is kept (host
// time per call, docs/perf.md). Failures are not kept.
thread_local RecentValues<BuildKey, Build, 4> t_builds;

bwgemmReason_t build_anew(const BuildKey& key, const KernelVariant** variant, GemmParams* params) {
  const KernelView view = to_kernel_view(key.problem);
  const TileShape shape = key.catalog->tile_shape(key.config, view.out_type);
  if (!plan_loads(view, shape).supported) return BWGEMM_REASON_UNSUPPORTED_LAYOUT;
  *variant = key.catalog->select(key.config, variant_key(view));
  // choose_config offers only compiled configurations.
  if (*variant == nullptr) return BWGEMM_REASON_LAUNCH_FAILED;
  if (!make_launch_params(view, shape, params)) {
    if (!g_map_failure_warned.exchange(true))
      log_warning("%s: the driver rejected a TMA map; forwarding to cuBLAS",
                  key.catalog->family_name);
    return BWGEMM_REASON_LAUNCH_FAILED;
  }
  params->wait_budget_ns = key.wait_budget_ns;
  // The grid launch_persistent makes, taking a cluster's CTAs one an SM (as
  // the configurations that run row classes are held).
  const int64_t clusters =
      persistent_clusters(params->scheduler.tile_count(), key.sm_count / shape.cluster_size,
                          key.problem.sm_count_target, shape.cluster_size);
  params->scheduler.batch_col_mask = batch_col_mask(*params, clusters);
  // A thin last wave split over K, in the problem's workspace where it holds
  // the pieces' partials (dispatch asks for room: tile_split_room).
  const GemmProblem& p = key.problem;
  if (shape.split_tiles && p.workspace != nullptr &&
      reinterpret_cast<uintptr_t>(p.workspace) % 256 == 0) {
    // The clusters the device runs at once, however many tiles.
    const int64_t slots =
        persistent_clusters(std::numeric_limits<int64_t>::max(), key.sm_count / shape.cluster_size,
                            p.sm_count_target, shape.cluster_size);
    const TileSplitPlan plan =
        plan_tile_split(params->scheduler.tile_count(), slots,
                        (int64_t{params->depth} + shape.block_k - 1) / shape.block_k, shape);
    if (plan.pieces > 1 && plan.bytes <= p.workspace_bytes)
      apply_tile_split(plan, shape, p.workspace, params);
  }
  return BWGEMM_REASON_KERNEL_SELECTED;
}

// The calling thread's kept build for the arguments, or a new one, kept,
// with `error_flag`; valid until its next call. NULL, with the reason, when
// none can be made.
const Build* find_or_build(const VariantCatalog& catalog, const GemmProblem& p,
                           const DeviceCaps& caps, int config, ErrorFlag error_flag,
                           bwgemmReason_t* reason) {
  // (k is the view's depth.)
  const BuildKey key{&catalog, p, config, wait_budget_ns(env_config().wait_timeout_ms, p.k),
                     caps.sm_count};
  *reason = BWGEMM_REASON_KERNEL_SELECTED;
  Build* build = t_builds.find(key);
  if (build == nullptr) {
    Build made;
    *reason = build_anew(key, &made.variant, &made.params);
    if (*reason != BWGEMM_REASON_KERNEL_SELECTED) return nullptr;
    build = t_builds.keep(key, made);
  }
  build->params.error_flag = error_flag;
  return build;
}

}  // namespace

bwgemmReason_t build_launch(const VariantCatalog& catalog, const GemmProblem& p,
                            const DeviceCaps& caps, int config, ErrorFlag error_flag,
                            const KernelVariant** variant, GemmParams* params) {
  bwgemmReason_t reason;
  if (const Build* build = find_or_build(catalog, p, caps, config, error_flag, &reason)) {
    *variant = build->variant;
    *params = build->params;
  }
  return reason;
}

cudaError_t enqueue_built(const VariantCatalog& catalog, const KernelVariant& v,
                          const GemmParams& params, const GemmProblem& p, const DeviceCaps& caps,
                          bool after_own_grid) {
  const GridInputs inputs{p.stream, p.b};
  const cudaError_t err = launch_persistent(v, params, caps, p.sm_count_target, p.stream,
                                            after_own_grid || follows_releasing_grid(inputs));
  if (err != cudaSuccess) return err;  // nothing enqueued
  if (catalog.releases_dependents)
    record_releasing_grid(inputs);
  else
    record_other_grid();
  return cudaSuccess;
}

LaunchResult launch_gemm(const VariantCatalog& catalog, const GemmProblem& p,
                         const DeviceCaps& caps, int config, ErrorFlag error_flag) {
  bwgemmReason_t reason;
  const Build* build = find_or_build(catalog, p, caps, config, error_flag, &reason);
  if (build == nullptr) return {LaunchStatus::kForward, reason};
  const cudaError_t err = enqueue_built(catalog, *build->variant, build->params, p, caps, false);
  if (err != cudaSuccess) {
    if (!g_launch_failure_warned.exchange(true))
      log_warning("%s kernel launch failed (CUDA error %d); forwarding to cuBLAS",
                  catalog.family_name, static_cast<int>(err));
    return {LaunchStatus::kForward, BWGEMM_REASON_LAUNCH_FAILED};
  }
  return {LaunchStatus::kEnqueued, BWGEMM_REASON_KERNEL_SELECTED};
}

}  // namespace bwgemm
