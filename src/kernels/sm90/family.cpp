// SPDX-License-Identifier: MIT
// The sm90 kernel family as dispatch sees it: where it runs, what it takes,
// and its launcher.
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>

#include "dispatch/kernel_family.h"
#include "kernels/common/launch_params.h"
#include "kernels/sm90/policy.h"
#include "kernels/sm90/variants.h"

namespace bwgemm::sm90 {
namespace {

constexpr int kMaxDevices = 64;

bool runs_on(const DeviceCaps& caps) { return caps.cc_major == 9 && caps.cc_minor == 0; }

bwgemmReason_t supports(const GemmProblem& p, const DeviceCaps& caps) {
  const Variant& v = select_variant(p.ab_type, p.c_type, p.trans_b, !p.trans_a);
  if (caps.smem_per_block_optin < int(v.smem_bytes)) return BWGEMM_REASON_NO_KERNEL_FOR_ARCH;
  // The scheduler counts tiles in int64 but the grid in int32 clusters.
  return BWGEMM_REASON_KERNEL_SELECTED;
}

int choose_config(const GemmProblem& p, const DeviceCaps& caps, bool forced) {
  return forced || policy_prefers_kernel(p, caps) ? 0 : -1;
}

const char* config_name(int) { return "sm90_128x256x64_3stage_cluster2"; }

// Co-resident clusters of a variant on a device, queried once per pair after
// raising the variant's shared-memory limit there.
std::atomic<int> g_max_clusters[kMaxDevices][kVariantCount];

int max_active_clusters(const Variant& v, const DeviceCaps& caps) {
  std::atomic<int>* slot =
      caps.device < kMaxDevices ? &g_max_clusters[caps.device][v.index] : nullptr;
  if (slot != nullptr) {
    const int cached = slot->load(std::memory_order_relaxed);
    if (cached > 0) return cached;
  }
  if (cudaFuncSetAttribute(reinterpret_cast<const void*>(v.kernel),
                           cudaFuncAttributeMaxDynamicSharedMemorySize,
                           int(v.smem_bytes)) != cudaSuccess)
    return 0;
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(v.cluster_size * caps.sm_count, 1, 1);
  config.blockDim = dim3(v.threads, 1, 1);
  config.dynamicSmemBytes = v.smem_bytes;
  cudaLaunchAttribute cluster{};
  cluster.id = cudaLaunchAttributeClusterDimension;
  cluster.val.clusterDim.x = v.cluster_size;
  cluster.val.clusterDim.y = 1;
  cluster.val.clusterDim.z = 1;
  config.attrs = &cluster;
  config.numAttrs = 1;
  int clusters = 0;
  if (cudaOccupancyMaxActiveClusters(&clusters, reinterpret_cast<const void*>(v.kernel), &config) !=
      cudaSuccess)
    return 0;
  if (slot != nullptr) slot->store(clusters, std::memory_order_relaxed);
  return clusters;
}

cudaError_t launch(const GemmProblem& p, const DeviceCaps& caps, int) {
  const Variant& v = select_variant(p.ab_type, p.c_type, p.trans_b, !p.trans_a);
  TileShape shape = tile_shape();
  shape.out_box_cols = 128 / int(dtype_size(p.c_type));
  GemmParams params;
  if (!make_launch_params(p, shape, &params)) return cudaErrorInvalidValue;
  const int clusters = max_active_clusters(v, caps);
  if (clusters <= 0) return cudaErrorInvalidConfiguration;
  const int64_t grid_clusters = std::min<int64_t>(params.scheduler.tile_count(), clusters);

  cudaLaunchConfig_t config{};
  config.gridDim = dim3(unsigned(grid_clusters * v.cluster_size), 1, 1);
  config.blockDim = dim3(v.threads, 1, 1);
  config.dynamicSmemBytes = v.smem_bytes;
  config.stream = p.stream;
  cudaLaunchAttribute cluster{};
  cluster.id = cudaLaunchAttributeClusterDimension;
  cluster.val.clusterDim.x = v.cluster_size;
  cluster.val.clusterDim.y = 1;
  cluster.val.clusterDim.z = 1;
  config.attrs = &cluster;
  config.numAttrs = 1;
  return cudaLaunchKernelEx(&config, v.kernel, params);
}

}  // namespace

extern const KernelFamily kFamily = {BWGEMM_PATH_SM90, "sm90",      runs_on, supports,
                                     choose_config,    config_name, launch};

}  // namespace bwgemm::sm90
