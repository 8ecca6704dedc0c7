// SPDX-License-Identifier: MIT
// Launching a persistent, clustered kernel instantiation: one grid of as many
// co-resident clusters as the device holds (or as there are tiles).
#pragma once

#include <cuda_runtime_api.h>

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
};

constexpr int kMaxKernelVariants = 32;

// Enqueues `v` on `stream` over min(tiles, co-resident clusters) clusters. The
// first launch of a variant on a device raises its shared-memory limit and
// queries its cluster occupancy there; later ones read the cache.
cudaError_t launch_persistent(const KernelVariant& v, const GemmParams& params,
                              const DeviceCaps& caps, cudaStream_t stream);

}  // namespace bwgemm
