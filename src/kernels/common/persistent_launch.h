// SPDX-License-Identifier: MIT
// Launching a persistent, clustered kernel instantiation: one grid of as many
// co-resident clusters as the device holds (or as there are tiles).
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>

#include "core/device_caps.h"
#include "kernels/common/gemm_params.h"

namespace bwgemm {

using KernelEntry = void (*)(GemmParams);

// One compiled kernel instantiation and what its launch needs.
struct KernelVariant {
  KernelEntry kernel;
  uint32_t smem_bytes;
  int threads;
  int cluster_size;
  int index;  // dense over all families, < kMaxKernelVariants, for per-device caches
  // The kernel waits for the previous grid on its stream (griddepcontrol)
  // before touching memory, so it may be launched as a programmatic
  // dependent, overlapping its prologue with that grid's tail (where that
  // grid releases its dependents early: launch_order.h).
  bool programmatic;
};

// sm90's configurations from 0, sm100's from 144 (their kFirstVariantIndex).
constexpr int kMaxKernelVariants = 192;

// The clusters of a persistent grid: one per work unit, up to the co-resident
// clusters the device holds, and within `sm_count_target` SMs (a handle's
// cublasSetSmCountTarget; 0: no limit) but never fewer than one.
inline int64_t persistent_clusters(int64_t units, int co_resident_clusters, int sm_count_target,
                                   int cluster_size) {
  int64_t clusters = std::min<int64_t>(units, co_resident_clusters);
  if (sm_count_target > 0)
    clusters = std::min<int64_t>(clusters, std::max(1, sm_count_target / cluster_size));
  return clusters;
}

// Enqueues `v` on `stream` over persistent_clusters() clusters of the
// scheduler's work units: the two steps below, after zeroing the arrival
// counts of tiles split over K (GemmParams::split). The first launch of a variant on a device
// raises its shared-memory limit and queries its cluster occupancy there; later ones read the
// cache. `after_releasing_grid`: the grid follows one that releases its dependents early
// (launch_order.h); a programmatic variant is then launched as a programmatic dependent.
cudaError_t launch_persistent(const KernelVariant& v, const GemmParams& params,
                              const DeviceCaps& caps, int sm_count_target, cudaStream_t stream,
                              bool after_releasing_grid);

// What cudaLaunchKernelEx takes besides the parameter block. Not copyable:
// config.attrs points at `cluster`.
struct PersistentConfig {
  PersistentConfig() = default;
  PersistentConfig(const PersistentConfig&) = delete;
  PersistentConfig& operator=(const PersistentConfig&) = delete;

  KernelEntry kernel;
  cudaLaunchConfig_t config;
  cudaLaunchAttribute attrs[2];  // config.attrs: the cluster, programmatic serialization
};

// The grid, block, shared memory, cluster and programmatic launch of `v` for
// `params`. cudaErrorInvalidConfiguration when the device cannot hold a
// cluster of it.
cudaError_t configure_persistent(const KernelVariant& v, const GemmParams& params,
                                 const DeviceCaps& caps, int sm_count_target, cudaStream_t stream,
                                 bool after_releasing_grid, PersistentConfig* out);

// cudaLaunchKernelEx alone (bwgemm-bench times it as the floor of a call's
// host cost).
cudaError_t enqueue_persistent(const PersistentConfig& c, const GemmParams& params);

}  // namespace bwgemm
