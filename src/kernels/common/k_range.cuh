// SPDX-License-Identifier: MIT
// The k blocks each CTA of a cluster runs for every work unit, shared by the
// kernel families: all of them, or a piece's share where the scheduler splits
// a tile over K (tile_scheduler.h), and of that, where the cluster's CTAs
// split K (Cfg::kSplitK), rank r's contiguous share; ranks past the end get
// none and add zeros, so the ranks' partial sums, added in rank order, are
// the whole.
#pragma once

#include "kernels/ptx/device.cuh"

namespace bwgemm {

struct KRange {
  int32_t begin, count;
};

// Share `part` of `parts` of n k blocks: consecutive shares of ceil(n /
// parts), the last one shorter; empty past the end.
BWGEMM_HOST_DEVICE KRange k_share(int32_t n, int32_t part, int32_t parts) {
  const int32_t share = (n + parts - 1) / parts;
  const int32_t start = part * share;
  const int32_t begin = start < n ? start : n;
  return {begin, share < n - begin ? share : n - begin};
}

template <class Cfg>
BWGEMM_HOST_DEVICE KRange k_range(int32_t k_blocks, uint32_t rank) {
  if constexpr (!Cfg::kSplitK)
    return {0, k_blocks};
  else
    return k_share(k_blocks, int32_t(rank), Cfg::kClusterSize);
}

// Piece `piece` of `pieces` of a tile: its share, then the rank's share of it.
template <class Cfg>
BWGEMM_HOST_DEVICE KRange k_range(int32_t k_blocks, uint32_t rank, int32_t piece, int32_t pieces) {
  const KRange whole = k_share(k_blocks, piece, pieces);
  const KRange mine = k_range<Cfg>(whole.count, rank);
  return {whole.begin + mine.begin, mine.count};
}

}  // namespace bwgemm
