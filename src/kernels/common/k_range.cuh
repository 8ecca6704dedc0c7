// SPDX-License-Identifier: MIT
// The k blocks each CTA of a cluster runs for every tile, shared by the
// kernel families: all of them, or where the cluster's CTAs split K
// (Cfg::kSplitK), rank r's contiguous share; ranks past the end get none and
// add zeros, so the ranks' partial sums, added in rank order, are the whole.
#pragma once

#include "kernels/ptx/device.cuh"

namespace bwgemm {

struct KRange {
  int32_t begin, count;
};

template <class Cfg>
BWGEMM_HOST_DEVICE KRange k_range(int32_t k_blocks, uint32_t rank) {
  if constexpr (!Cfg::kSplitK) {
    return {0, k_blocks};
  } else {
    const int32_t share = (k_blocks + Cfg::kClusterSize - 1) / Cfg::kClusterSize;
    const int32_t start = int32_t(rank) * share;
    const int32_t begin = start < k_blocks ? start : k_blocks;
    return {begin, share < k_blocks - begin ? share : k_blocks - begin};
  }
}

}  // namespace bwgemm
