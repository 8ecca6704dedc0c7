// SPDX-License-Identifier: MIT
// The persistent loop over a cluster's tiles: cluster c takes linear tiles c,
// c + clusters, c + 2 * clusters, ... (tile_scheduler.h). Every role of every
// CTA walks the same sequence, so their rings stay in step.
#pragma once

#include "kernels/common/tile_scheduler.h"
#include "kernels/ptx/index.cuh"

namespace bwgemm {

// for (int64_t t : ClusterTiles(p.scheduler)) visits this cluster's tiles.
class ClusterTiles {
 public:
  struct End {};

  class Iterator {
   public:
    BWGEMM_DEVICE Iterator(int64_t tile, const TileScheduler& scheduler)
        : tile_(tile), scheduler_(&scheduler) {}
    BWGEMM_DEVICE int64_t operator*() const { return tile_; }
    BWGEMM_DEVICE void operator++() { tile_ += ptx::cluster_count(); }
    BWGEMM_DEVICE bool operator!=(End) const { return tile_ < scheduler_->tile_count(); }

   private:
    int64_t tile_;
    const TileScheduler* scheduler_;
  };

  BWGEMM_DEVICE explicit ClusterTiles(const TileScheduler& scheduler) : scheduler_(scheduler) {}
  BWGEMM_DEVICE Iterator begin() const { return {ptx::cluster_index(), scheduler_}; }
  BWGEMM_DEVICE End end() const { return {}; }

 private:
  const TileScheduler& scheduler_;
};

}  // namespace bwgemm
