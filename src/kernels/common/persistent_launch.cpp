// SPDX-License-Identifier: MIT
#include "kernels/common/persistent_launch.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>

namespace bwgemm {
namespace {

// Per device and variant: the co-resident cluster count, valid in the
// context it was found in (the function's shared-memory attribute is set
// there too; a device reset makes a new context without it).
struct ClusterCount {
  std::atomic<uint64_t> context{0};
  std::atomic<int> clusters{0};
};
ClusterCount g_max_clusters[kMaxDevices][kMaxKernelVariants];

// attrs: room for the cluster dimension and, with `programmatic`, the
// programmatic stream serialization that lets the grid start while the
// previous one on the stream finishes (the kernel waits for it itself).
cudaLaunchConfig_t launch_config(const KernelVariant& v, unsigned clusters, bool programmatic,
                                 cudaLaunchAttribute (&attrs)[2]) {
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(clusters * unsigned(v.cluster_size), 1, 1);
  config.blockDim = dim3(unsigned(v.threads), 1, 1);
  config.dynamicSmemBytes = v.smem_bytes;
  attrs[0].id = cudaLaunchAttributeClusterDimension;
  attrs[0].val.clusterDim.x = unsigned(v.cluster_size);
  attrs[0].val.clusterDim.y = 1;
  attrs[0].val.clusterDim.z = 1;
  attrs[1].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attrs[1].val.programmaticStreamSerializationAllowed = 1;
  config.attrs = attrs;
  config.numAttrs = programmatic ? 2 : 1;
  return config;
}

int max_active_clusters(const KernelVariant& v, const DeviceCaps& caps) {
  ClusterCount* slot = caps.device < kMaxDevices ? &g_max_clusters[caps.device][v.index] : nullptr;
  const uint64_t context = caps.context_id;
  if (slot != nullptr && context != 0 && slot->context.load(std::memory_order_acquire) == context)
    return slot->clusters.load(std::memory_order_relaxed);
  const void* entry = reinterpret_cast<const void*>(v.kernel);
  if (cudaFuncSetAttribute(entry, cudaFuncAttributeMaxDynamicSharedMemorySize, int(v.smem_bytes)) !=
      cudaSuccess)
    return 0;
  cudaLaunchAttribute attrs[2];
  const cudaLaunchConfig_t config = launch_config(v, unsigned(caps.sm_count), false, attrs);
  int clusters = 0;
  if (cudaOccupancyMaxActiveClusters(&clusters, entry, &config) != cudaSuccess) return 0;
  if (slot != nullptr && clusters > 0) {
    slot->clusters.store(clusters, std::memory_order_relaxed);
    slot->context.store(context, std::memory_order_release);
  }
  return clusters;
}

}  // namespace

cudaError_t configure_persistent(const KernelVariant& v, const GemmParams& params,
                                 const DeviceCaps& caps, int sm_count_target, cudaStream_t stream,
                                 bool after_releasing_grid, PersistentConfig* out) {
  const int clusters = max_active_clusters(v, caps);
  if (clusters <= 0) return cudaErrorInvalidConfiguration;
  const int64_t grid =
      persistent_clusters(params.scheduler.unit_count(), clusters, sm_count_target, v.cluster_size);
  out->kernel = v.kernel;
  out->config =
      launch_config(v, unsigned(grid), v.programmatic && after_releasing_grid, out->attrs);
  out->config.stream = stream;
  return cudaSuccess;
}

cudaError_t enqueue_persistent(const PersistentConfig& c, const GemmParams& params) {
  // Not the cudaLaunchKernelEx template: it takes the arguments by value, a
  // copy of the whole block on every launch.
  void* args[] = {const_cast<GemmParams*>(&params)};
  return cudaLaunchKernelExC(&c.config, reinterpret_cast<const void*>(c.kernel), args);
}

cudaError_t launch_persistent(const KernelVariant& v, const GemmParams& params,
                              const DeviceCaps& caps, int sm_count_target, cudaStream_t stream,
                              bool after_releasing_grid) {
  PersistentConfig c;
  cudaError_t err =
      configure_persistent(v, params, caps, sm_count_target, stream, after_releasing_grid, &c);
  if (err == cudaSuccess && params.split.arrivals != nullptr)
    err = cudaMemsetAsync(params.split.arrivals, 0,
                          size_t(params.split.arrival_count) * sizeof(uint32_t), stream);
  return err != cudaSuccess ? err : enqueue_persistent(c, params);
}

}  // namespace bwgemm
